// Engine KV capacity and admission: eval/engine_kv.hpp, docs/physics.md §10.1.
#include "eval/engine_kv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tessera/physics/layout.hpp"

namespace tessera {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kMiB = 1024.0 * 1024.0;

// SGLang 0.5's mem_fraction_static when not given (python/sglang/srt/server_args.py,
// ServerArgs._handle_gpu_memory_settings): reserved MiB = 512 + 1.5 max(chunked_prefill_size, 2048)
// + 2 cuda_graph_max_bs + 1024 tp pp / 8, at least 10 GiB on a GPU of more than 60 GiB; the
// fraction (M - reserved) / M rounded to 3 decimals. cuda_graph_max_bs by the GPU's memory and tp.
double sglang_auto_fraction(double memory_bytes, std::int64_t chunk, std::int64_t tp, std::int64_t pp) {
  const double mem = memory_bytes / kMiB;
  double bs;
  if (mem < 20 * 1024.0) {
    bs = 8;
  } else if (mem < 35 * 1024.0) {
    bs = tp < 4 ? 24 : 80;
  } else if (mem < 60 * 1024.0) {
    bs = tp < 4 ? 32 : 160;
  } else if (mem < 160 * 1024.0) {
    bs = tp < 4 ? 256 : 512;
  } else {
    bs = 512;
  }
  double reserved = 512 + static_cast<double>(std::max<std::int64_t>(chunk, 2048)) * 1.5 + bs * 2 +
                    static_cast<double>(tp * pp) / 8 * 1024;
  if (mem > 60 * 1024.0) reserved = std::max(reserved, 10 * 1024.0);
  return std::round((mem - reserved) / mem * 1000.0) / 1000.0;
}

std::int64_t floor_tokens(double bytes, double per_token, std::int64_t block) {
  if (!(bytes > 0) || !(per_token > 0)) return 0;
  const double blocks = std::floor(bytes / (per_token * static_cast<double>(block)));
  return static_cast<std::int64_t>(blocks) * block;
}

// The memory of a decode step of one sequence of kProbeTokens tokens: the weights, and the KV
// bytes of one token times kProbeTokens.
constexpr std::int64_t kProbeTokens = std::int64_t{1} << 20;
MemoryUsage one_long_sequence(const Evaluator& ev, const ParallelConfig& c, const Layout& layout) {
  Workload w = ev.workload();
  w.mode = Mode::decode;
  w.batch = 1;
  w.context = kProbeTokens;
  w.chunk = 0;
  MemoryUsage m;
  ev.memory_of(w, c, layout, m);
  return m;
}

// A speculative drafter the engine loads (docs/physics.md §12.8): its layers' weights — an MTP
// module as the model's average layer, an EAGLE head as a dense one (Q, K, V and O projections
// and the dense FFN, sharded over TP) — its input projection (f H^2, replicated), and one more
// layer's KV per token.
void add_drafter(const EvalContext& ctx, const EngineKv& rule, const ParallelConfig& c,
                 EngineKvCapacity& cap) {
  const ModelSpec& m = *ctx.model;
  const double L = static_cast<double>(std::max<std::int64_t>(1, m.layers));
  const double H = static_cast<double>(m.hidden);
  const double qo = static_cast<double>(m.heads * m.head_dim),
               kv = static_cast<double>(m.kv_heads * m.head_dim);
  const double ffn = (m.ffn_kind == FfnKind::gated ? 3.0 : 2.0) * H * static_cast<double>(m.ffn);
  const double dense =
      (H * (2 * qo + 2 * kv) + ffn) * ctx.weight_bytes / static_cast<double>(std::max(1, c.tp));
  const double layer = rule.draft_dense ? dense : cap.weights_bytes / L;
  cap.weights_bytes += layer * rule.draft_layers + rule.draft_fc_inputs * H * H * ctx.weight_bytes;
  cap.kv_bytes_per_token *= (L + rule.draft_layers) / L;
}

// A separate draft model the engine loads (method draft): its weights and its KV per token at the
// configuration it runs beside `c`, from its own memory model.
void add_draft_model(const Evaluator& draft, const ParallelConfig& c, EngineKvCapacity& cap) {
  const ParallelConfig dc = Evaluator::draft_model_config(c, *draft.context().model);
  Layout layout;
  compute_layout(*draft.context().model, *draft.context().machine, draft.workload(), dc, layout);
  if (!layout.valid) return;  // the serving evaluator refuses the point first
  const MemoryUsage m = one_long_sequence(draft, dc, layout);
  cap.weights_bytes += m.weights_bytes;
  cap.kv_bytes_per_token += m.kv_bytes / static_cast<double>(kProbeTokens);
}

}  // namespace

EngineKvCapacity engine_kv_capacity(const Evaluator& ev, const EngineKv& rule, const ParallelConfig& c,
                                    const Layout& layout, std::int64_t profile_tokens,
                                    std::int64_t max_seqs) {
  EngineKvCapacity cap;
  if (!rule.active()) return cap;
  cap.engine = true;
  cap.block = std::max<std::int64_t>(1, rule.block);
  if (profile_tokens <= 0) profile_tokens = std::max<std::int64_t>(1, ev.workload().input);
  cap.profile_tokens = profile_tokens;
  // The weights and the KV bytes of one token.
  const MemoryUsage m = one_long_sequence(ev, c, layout);
  cap.weights_bytes = m.weights_bytes;
  cap.kv_bytes_per_token = m.kv_bytes / static_cast<double>(kProbeTokens);
  if (rule.draft_layers > 0) add_drafter(ev.context(), rule, c, cap);
  if (rule.draft_model && ev.draft_model()) add_draft_model(*ev.draft_model(), c, cap);
  // The profile pass: one prefill of profile_tokens tokens (its transient set).
  Workload w = ev.workload();
  w.mode = Mode::prefill;
  w.batch = 1;
  w.context = profile_tokens;
  w.chunk = profile_tokens;
  MemoryUsage p;
  ev.memory_of(w, c, layout, p);
  const PESpec& pe = ev.context().machine->pe;
  cap.memory_bytes = rule.gpu_memory > 0   ? rule.gpu_memory
                     : pe.hbm_reported > 0 ? pe.hbm_reported
                                           : pe.hbm_capacity;
  const double M = cap.memory_bytes, W = cap.weights_bytes, b = cap.kv_bytes_per_token;
  switch (rule.rule) {
    case KvRule::vllm: {
      // The profile's torch peak: the forward's transient set or the sampler's, the larger. The
      // sampler runs min(max_num_seqs, max_num_batched_tokens) sequences' logits.
      const std::int64_t seqs = max_seqs > 0            ? max_seqs
                                : rule.max_num_seqs > 0 ? rule.max_num_seqs
                                                        : profile_tokens;
      cap.sampled_sequences = std::min(seqs, profile_tokens);
      const double logits = rule.sampler_bytes * static_cast<double>(ev.context().model->vocab) *
                            static_cast<double>(cap.sampled_sequences);
      cap.activation_bytes = std::max(p.transient_bytes, logits);
      cap.other_bytes = c.tp > 1 ? rule.non_torch_tp : rule.non_torch;
      cap.fraction = rule.memory_fraction;
      cap.tokens = floor_tokens(cap.fraction * M - W - cap.activation_bytes - cap.other_bytes, b, cap.block);
      break;
    }
    case KvRule::sglang: {
      cap.fraction = rule.memory_fraction > 0 ? rule.memory_fraction
                                              : sglang_auto_fraction(M, profile_tokens, c.tp * c.dp, c.pp);
      cap.other_bytes = rule.load_overhead;
      cap.tokens = floor_tokens(cap.fraction * M - W - cap.other_bytes, b, cap.block);
      break;
    }
    case KvRule::trtllm: {
      cap.activation_bytes = p.transient_bytes;
      cap.fraction = rule.memory_fraction;
      cap.tokens = floor_tokens(cap.fraction * (M - W - cap.activation_bytes), b, cap.block);
      if (rule.max_tokens > 0) {  // both at most 10^12 and 65536 (kv_knob_problem): no overflow
        const std::int64_t limit = (rule.max_tokens + cap.block - 1) / cap.block * cap.block;
        cap.tokens = std::min(cap.tokens, limit);
      }
      break;
    }
    case KvRule::none:
      break;
  }
  return cap;
}

std::int64_t engine_worst_tokens(std::int64_t batch, std::int64_t input, std::int64_t output,
                                 std::int64_t block, bool staggered) {
  // In double, then saturated: a hostile batch, length or block reads as "never fits", not as a
  // wrapped (negative) count that would.
  const double B = static_cast<double>(std::max<std::int64_t>(1, batch));
  const double k = static_cast<double>(std::max<std::int64_t>(1, block));
  const double I = static_cast<double>(std::max<std::int64_t>(0, input));
  const double O = static_cast<double>(std::max<std::int64_t>(0, output));
  double t = 0;
  if (!staggered) {
    t = B * std::ceil((I + O) / k) * k;
  } else {
    const double tokens = B * I + std::floor((O * (B + 1) + 1) / 2);
    t = (std::ceil(tokens / k) + B) * k;
  }
  constexpr double kMax = 9.0e18;  // below INT64_MAX
  return t >= kMax ? static_cast<std::int64_t>(kMax) : static_cast<std::int64_t>(t);
}

namespace {

// The largest batch in [1, 2^30] that `admits` (monotone: admits(B) implies admits(B - 1)), by
// doubling then bisection; 0 when not even one.
template <class Admits>
std::int64_t largest_admitted(Admits&& admits) {
  if (!admits(1)) return 0;
  constexpr std::int64_t kMax = std::int64_t{1} << 30;
  std::int64_t lo = 1, hi = 2;  // admits(lo)
  while (hi <= kMax && admits(hi)) {
    lo = hi;
    hi *= 2;
  }
  if (hi > kMax + 1) hi = kMax + 1;  // lo <= 2^30 < hi: the answer stays within 2^30
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (admits(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

std::int64_t engine_max_batch(std::int64_t capacity, std::int64_t input, std::int64_t output,
                              std::int64_t block, bool staggered) {
  return largest_admitted(
      [&](std::int64_t b) { return engine_worst_tokens(b, input, output, block, staggered) <= capacity; });
}

std::int64_t engine_admitted_batch(const Evaluator& ev, const EngineKv& rule, const ParallelConfig& c,
                                   const Layout& layout, std::int64_t profile_tokens, std::int64_t input,
                                   std::int64_t output, bool staggered) {
  // The worst moment grows and the pool (vLLM's sampler term) shrinks with B: monotone.
  return largest_admitted([&](std::int64_t b) {
    const EngineKvCapacity cap = engine_kv_capacity(ev, rule, c, layout, profile_tokens, b);
    return engine_worst_tokens(b, input, output, cap.block, staggered) <= cap.tokens;
  });
}

std::string describe_engine_kv(const EngineKv& rule, const EngineKvCapacity& cap) {
  char buf[320];
  const double M = cap.memory_bytes / kGiB, W = cap.weights_bytes / kGiB, A = cap.activation_bytes / kGiB,
               N = cap.other_bytes / kGiB;
  switch (rule.rule) {
    case KvRule::vllm:
      std::snprintf(buf, sizeof buf,
                    "%s rule: %.2f x %.2f GiB - weights %.2f GiB - activation peak %.2f GiB at %lld tokens, "
                    "%lld sequences - non-torch %.2f GiB, blocks of %lld",
                    rule.label.c_str(), cap.fraction, M, W, A, static_cast<long long>(cap.profile_tokens),
                    static_cast<long long>(cap.sampled_sequences), N, static_cast<long long>(cap.block));
      break;
    case KvRule::sglang:
      std::snprintf(
          buf, sizeof buf,
          "%s rule: mem_fraction_static %.3f%s x %.2f GiB - weights %.2f GiB - load overhead %.2f GiB",
          rule.label.c_str(), cap.fraction, rule.memory_fraction > 0 ? "" : " (auto)", M, W, N);
      break;
    case KvRule::trtllm:
      std::snprintf(buf, sizeof buf,
                    "%s rule: %.2f x (%.2f GiB - weights %.2f GiB - activation %.2f GiB), blocks of %lld%s",
                    rule.label.c_str(), cap.fraction, M, W, A, static_cast<long long>(cap.block),
                    rule.max_tokens > 0 ? ", max_tokens" : "");
      break;
    case KvRule::none:
      return "";
  }
  std::string n = std::to_string(cap.tokens);
  for (int i = static_cast<int>(n.size()) - 3; i > 0; i -= 3) n.insert(static_cast<std::size_t>(i), ",");
  return "KV capacity " + n + " tokens per replica (" + buf + ")";
}

}  // namespace tessera
