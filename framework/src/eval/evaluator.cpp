// Step composition and accounting: docs/physics.md §8 "Whole step", §9 "Accounting".
#include "eval/evaluator.hpp"
#include "eval/stage_layers.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>

#include "host/call_trace.hpp"
#include "host/guarded_plugins.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {
std::atomic<std::uint64_t> g_next_evaluator_id{1};

// The first non-finite quantity of an evaluated configuration, in the order a reader checks
// them; NonFinite::none when all are finite.
NonFinite first_non_finite(const StepTotals& t, const MemoryUsage& mem, const double* objectives,
                           std::size_t n_objectives) {
  if (!std::isfinite(t.latency_s)) return NonFinite::latency;
  if (!std::isfinite(t.throughput_tok_s) || !std::isfinite(t.pipeline_throughput_tok_s))
    return NonFinite::throughput;
  if (!std::isfinite(mem.used_bytes) || !std::isfinite(mem.weights_bytes) || !std::isfinite(mem.kv_bytes) ||
      !std::isfinite(mem.transient_bytes))
    return NonFinite::memory;
  if (!std::isfinite(t.compute_util) || !std::isfinite(t.bw_util)) return NonFinite::utilization;
  if (!std::isfinite(t.efficiency)) return NonFinite::efficiency;
  if (!std::isfinite(t.flops_all_pes) || !std::isfinite(t.hbm_bytes_all_pes) ||
      !std::isfinite(t.link_bytes_all_pes))
    return NonFinite::accounting;
  for (std::size_t i = 0; i < n_objectives; ++i)
    if (!std::isfinite(objectives[i])) return NonFinite::objective;
  return NonFinite::none;
}
}  // namespace

const char* non_finite_name(NonFinite q) {
  switch (q) {
    case NonFinite::none:
      return "none";
    case NonFinite::latency:
      return "latency";
    case NonFinite::throughput:
      return "throughput";
    case NonFinite::memory:
      return "memory use";
    case NonFinite::utilization:
      return "utilization";
    case NonFinite::efficiency:
      return "efficiency";
    case NonFinite::accounting:
      return "FLOP or byte totals";
    case NonFinite::objective:
      return "objective";
  }
  return "quantity";
}

Evaluator::Evaluator(const EvalContext& ctx, const Workload& workload,
                     std::shared_ptr<const LatencyModel> latency, std::shared_ptr<const MemoryModel> memory,
                     std::vector<ObjectiveSlot> objectives)
    : ctx_(ctx),
      workload_(workload),
      id_(g_next_evaluator_id.fetch_add(1, std::memory_order_relaxed)),
      latency_(std::move(latency)),
      memory_(std::move(memory)),
      objectives_(std::move(objectives)) {}

// compute_layout() through the buffer's memo: configurations with the same layout_key() share
// one layout (in a sweep, the kv_shard_mode and, in decode, cp_ring_variant variants of a
// placement). A direct-mapped table of 16, reset when the buffer moves to another Evaluator.
void Evaluator::layout_of(const ParallelConfig& c, Evaluation& out) const {
  Evaluation::LayoutMemo& m = out.layout_memo;
  if (m.owner != id_) {
    m.used.fill(false);
    m.owner = id_;
  }
  const ParallelConfig key = layout_key(workload_, c);
  std::size_t h = static_cast<std::size_t>(key.ffn_shard_scope);
  for (const std::int64_t v :
       {std::int64_t{key.tp_placement}, std::int64_t{key.cp_placement},
        static_cast<std::int64_t>(key.cp_ring_variant), std::int64_t{key.cp}, std::int64_t{key.tp},
        std::int64_t{key.pp}, std::int64_t{key.dp}, std::int64_t{key.ep}})
    h = h * 31 + static_cast<std::size_t>(v);
  h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull;  // the top bits mix every knob
  const std::size_t slot = (h >> 56) % Evaluation::LayoutMemo::kSlots;
  if (m.used[slot] && m.keys[slot] == key) {
    out.layout = m.layouts[slot];
    return;
  }
  compute_layout(*ctx_.model, *ctx_.machine, workload_, c, out.layout);
  m.used[slot] = true;
  m.keys[slot] = key;
  m.layouts[slot] = out.layout;
}

double Evaluator::time_into(const Workload& w, const StepShape& shape, StepKind kind,
                            std::int64_t chunk_index, const ParallelConfig& c, const Layout& layout,
                            Evaluation& e, StageList& out, std::int64_t chunk_count) const {
  build_step_work(ctx_, w, c, layout, shape, e.work);
  out.clear();
  const StepCall call{.work = e.work,
                      .config = c,
                      .layout = layout,
                      .shape = shape,
                      .workload = w,
                      .kind = kind,
                      .chunk_index = chunk_index,
                      .chunk_count = kind != StepKind::prefill_chunk ? 1
                                     : chunk_count > 0               ? chunk_count
                                                                     : w.chunk_count()};
  {
    const CollectiveMemoScope memo(e.collective_memo, id_, *ctx_.machine);
    latency_->time_step(ctx_, call, out);
  }
  after_call(*latency_, "latency", "time_step");
  double t = 0;
  for (const Stage& s : out) t += s.count * s.visible_s;
  return t;
}

namespace {
// Tier names are interned: a stage that keeps the default names the tier by kHbmTier's own
// pointer, compared before the text (a plugin's copy of "hbm" still compares equal).
bool is_hbm_tier(const char* name) {
  return name == kHbmTier || name == nullptr || name[0] == '\0' || std::strcmp(name, kHbmTier) == 0;
}

// The tier named `name` in `t` (added when new; past kMaxTiers, the last one).
TierUse& tier_of(StepTotals& t, const char* name) {
  for (int k = 1; k < t.tier_count; ++k)
    if (std::strcmp(t.tiers[static_cast<std::size_t>(k)].name, name) == 0)
      return t.tiers[static_cast<std::size_t>(k)];
  if (t.tier_count == StepTotals::kMaxTiers) return t.tiers[StepTotals::kMaxTiers - 1];
  TierUse& u = t.tiers[static_cast<std::size_t>(t.tier_count++)];
  u = TierUse{};
  u.name = name;
  return u;
}
}  // namespace

void Evaluator::accumulate_totals(const StepWork& work, const StageList& stages, const ParallelConfig& c,
                                  StepTotals& t) const {
  const double dp = c.dp;
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    const double n = w.count * w.ranks * dp;  // occurrences x PEs executing them, all replicas
    t.flops_all_pes += n * w.accounted_flops;
    t.redundant_flops += n * w.redundant_flops;
    const Stage* timed = i < stages.size ? &stages.items[static_cast<std::size_t>(i)] : nullptr;
    if (timed == nullptr || is_hbm_tier(timed->memory_tier)) {
      t.hbm_bytes_all_pes += n * w.accounted_hbm_bytes;
    } else {
      TierUse& u = tier_of(t, timed->memory_tier);
      u.bytes_all_pes += n * w.accounted_hbm_bytes;
      u.bandwidth = std::max(u.bandwidth, timed->memory_tier_bw);
    }
    double wire = w.has_cp ? w.cp.steps * w.cp.msg_bytes : 0.0;
    for (int k = 0; k < w.comm_count; ++k)
      wire += collective_wire_bytes(w.comms[static_cast<std::size_t>(k)]);
    t.link_bytes_all_pes += n * wire;
  }
}

namespace {
// Per-chunk averages, step 1: chunk's stages (count x each quantity) added to `sums`. The stages
// of every chunk share the same order.
void add_chunk_stage_sums(const StageList& chunk, StageList& sums) {
  for (int i = 0; i < chunk.size; ++i) {
    const Stage& s = chunk.items[static_cast<std::size_t>(i)];
    if (i >= sums.size) {
      Stage& a = sums.push();
      a = s;
      a.count = 0;
      a.flops = a.hbm_bytes = a.comm_bytes = a.compute_s = a.memory_s = a.comm_s = a.visible_s = 0;
    }
    Stage& a = sums.items[static_cast<std::size_t>(i)];
    a.count += s.count;
    a.flops += s.count * s.flops;
    a.hbm_bytes += s.count * s.hbm_bytes;
    a.comm_bytes += s.count * s.comm_bytes;
    a.compute_s += s.count * s.compute_s;
    a.memory_s += s.count * s.memory_s;
    a.comm_s += s.count * s.comm_s;
    a.visible_s += s.count * s.visible_s;
  }
}

// Per-chunk averages, step 2: the sums of add_chunk_stage_sums -> per-occurrence averages.
void stage_sums_to_averages(StageList& stages) {
  for (Stage& a : stages) {
    if (a.count <= 0) continue;
    a.flops /= a.count;
    a.hbm_bytes /= a.count;
    a.comm_bytes /= a.count;
    a.compute_s /= a.count;
    a.memory_s /= a.count;
    a.comm_s /= a.count;
    a.visible_s /= a.count;
  }
}
}  // namespace

double Evaluator::stage_time(const Workload& w, const ParallelConfig& c, const Layout& layout, Mode mode,
                             std::int64_t batch, std::int64_t tokens, double kv_cached, std::int64_t chunk,
                             bool lm_head, Evaluation& scratch) const {
  StepShape sh;
  sh.mode = mode;
  sh.batch = batch;
  sh.tokens = tokens;
  sh.kv_cached = kv_cached;
  sh.chunk = chunk;
  stage_layers(ctx_, c.pp, sh);
  sh.lm_head = lm_head;
  sh.hops = c.pp > 1 ? 1 : 0;
  return time_into(w, sh, StepKind::pipeline_stage, 0, c, layout, scratch, scratch.chunk_stages);
}

// The whole decode step (decode()) and prefill chunk j (prefill()): the shapes explain rebuilds.
StepShape Evaluator::decode_shape(const Workload& w, const ParallelConfig& c) const {
  StepShape sh;
  sh.mode = Mode::decode;
  sh.batch = w.batch;
  sh.tokens = w.batch;
  sh.kv_cached = static_cast<double>(w.context);
  model_layers(ctx_, sh);
  sh.lm_head = true;
  sh.hops = c.pp - 1;
  return sh;
}

StepShape Evaluator::prefill_chunk_shape(const Workload& w, const ParallelConfig& c, std::int64_t j) const {
  const std::int64_t P = j * w.chunk_tokens();
  const std::int64_t cj = std::min(w.chunk_tokens(), w.context - P);
  StepShape sh;
  sh.mode = Mode::prefill;
  sh.batch = w.batch;
  sh.tokens = w.batch * cj;
  sh.kv_cached = static_cast<double>(P);
  sh.chunk = cj;
  if (c.pp == 1) {
    model_layers(ctx_, sh);
  } else {
    stage_layers(ctx_, c.pp, sh);
  }
  sh.lm_head = j + 1 == w.chunk_count();
  sh.hops = 0;
  return sh;
}

void Evaluator::explained_work(const ParallelConfig& c, const Layout& layout, std::int64_t chunk_index,
                               StepWork& out) const {
  const Workload& w = workload_;
  const std::int64_t last = std::max<std::int64_t>(0, w.chunk_count() - 1);
  const StepShape sh = w.mode == Mode::decode
                           ? decode_shape(w, c)
                           : prefill_chunk_shape(w, c, std::clamp<std::int64_t>(chunk_index, 0, last));
  build_step_work(ctx_, w, c, layout, sh, out);
}

void Evaluator::decode(const Workload& w, const ParallelConfig& c, Evaluation& out) const {
  const StepShape sh = decode_shape(w, c);
  StepTotals& t = out.totals;
  t.latency_s = time_into(w, sh, StepKind::decode_step, 0, c, out.layout, out, out.stages);
  accumulate_totals(out.work, out.stages, c, t);
  t.tokens = static_cast<double>(c.dp) * w.batch;
  t.throughput_tok_s = t.latency_s > 0 ? t.tokens / t.latency_s : 0;
  // Pipeline-full decode: pp micro-batches of B/pp sequences keep every stage busy.
  if (c.pp > 1 && w.batch >= c.pp && w.scope == Scope::full) {
    const std::int64_t b = w.batch / c.pp;
    const double ts =
        stage_time(w, c, out.layout, Mode::decode, b, b, static_cast<double>(w.context), 0, true, out);
    t.pipeline_throughput_tok_s = ts > 0 ? static_cast<double>(c.dp) * w.batch / (c.pp * ts) : 0;
  }
}

void Evaluator::prefill(const Workload& w, const ParallelConfig& c, Evaluation& out) const {
  const std::int64_t S = w.context, chunk = w.chunk_tokens();
  const std::int64_t n_chunks = w.chunk_count();
  StepTotals& t = out.totals;
  out.stages.clear();
  double ttft = 0, last_stage_t = 0, stage_sum = 0, last_lm = 0;
  std::int64_t last_chunk = chunk;
  for (std::int64_t j = 0; j < n_chunks; ++j) {
    const bool last = j + 1 == n_chunks;
    const StepShape sh = prefill_chunk_shape(w, c, j);
    const double tj = time_into(w, sh, StepKind::prefill_chunk, j, c, out.layout, out, out.chunk_stages);
    // Accounting covers the whole model once: with pp > 1 the timed work is one pipeline
    // stage, so the full step's work is built again for the totals.
    if (c.pp > 1) {
      StepShape full = sh;
      model_layers(ctx_, full);
      build_step_work(ctx_, w, c, out.layout, full, out.work);
    }
    accumulate_totals(out.work, out.chunk_stages, c, t);
    if (last) last_chunk = sh.chunk;
    add_chunk_stage_sums(out.chunk_stages, out.stages);
    if (c.pp == 1) {
      ttft += tj;
    } else {
      // One stage's time for this chunk, without lm_head (added once at the end).
      double lm = 0;
      for (const Stage& s : out.chunk_stages)
        if (s.block == StageBlock::head) lm += s.count * s.visible_s;
      stage_sum += tj - lm;
      last_stage_t = tj - lm;
      if (last) {
        ttft += lm;
        last_lm = lm;
      }
    }
  }
  stage_sums_to_averages(out.stages);
  if (c.pp > 1) {
    // Chunks pipeline across the pp stages: TTFT = sum_j t_stage(j) + (pp-1)(t_stage(last) + hop).
    t.prefill_pipelined = true;
    double hop = 0;
    if (w.scope == Scope::full) {
      Collective h;
      h.kind = CommKind::p2p;
      h.ranks = 2;
      h.bytes = static_cast<double>(w.batch) * static_cast<double>(last_chunk) / c.cp *
                static_cast<double>(ctx_.model->hidden) * ctx_.act_bytes;
      h.link = out.layout.pp_hop;
      const CollectiveMemoScope memo(out.collective_memo, id_, *ctx_.machine);
      hop = collective_cost(h, *ctx_.machine).seconds;
    }
    ttft += stage_sum + (c.pp - 1) * (last_stage_t + hop);
  }
  // A stream of such prefills keeps every stage busy: one leaves every stage's busy time, the
  // last stage's (which also runs lm_head); the hops overlap the next prompt's compute.
  out.prefill_period_s = c.pp > 1 ? stage_sum + last_lm : ttft;
  t.latency_s = ttft;
  t.tokens = static_cast<double>(c.dp) * w.batch * S;
  t.throughput_tok_s = ttft > 0 ? t.tokens / ttft : 0;
}

void Evaluator::evaluate_config(const ParallelConfig& c, Evaluation& out) const {
  out.config = c;
  mark_config(out.config);  // a worker's crash report names it (host/call_trace.hpp)
  out.totals = StepTotals{};
  out.totals.tier_count = 1;  // tiers[0]: HBM
  out.stages.clear();
  layout_of(c, out);
  out.valid = out.layout.valid;
  out.feasible = false;
  out.non_finite = NonFinite::none;
  if (!out.valid) return;
  memory_->evaluate(ctx_, workload_, c, out.layout, out.memory);
  after_call(*memory_, "memory", "evaluate");
  out.feasible = out.memory.fits;
  if (workload_.mode == Mode::decode)
    decode(workload_, c, out);
  else
    prefill(workload_, c, out);

  StepTotals& t = out.totals;
  t.pes = static_cast<double>(c.pes());
  if (t.latency_s > 0) {
    const double useful = t.flops_all_pes - t.redundant_flops;
    // util_peak: the fastest GEMM peak of the model's parts (= gemm_peak with one format).
    t.compute_util = useful / (std::max(ctx_.util_peak, ctx_.gemm_peak) * t.pes * t.latency_s);
    t.bw_util = t.hbm_bytes_all_pes / (ctx_.hbm_bw * t.pes * t.latency_s);
  }
  t.tiers[0].bytes_all_pes = t.hbm_bytes_all_pes;
  t.tiers[0].bandwidth = ctx_.hbm_bw;
  t.tiers[0].util = t.bw_util;
  // Efficiency pairs compute with the busiest memory tier (HBM alone: bw_util), so a model that
  // serves its bytes from another tier is not scored as if it moved none (docs/physics.md §9).
  double memory_util = t.bw_util;
  for (int k = 1; k < t.tier_count; ++k) {
    TierUse& u = t.tiers[static_cast<std::size_t>(k)];
    u.util = u.bandwidth > 0 && t.latency_s > 0 ? u.bytes_all_pes / (u.bandwidth * t.pes * t.latency_s) : 0;
    memory_util = std::max(memory_util, u.util);
  }
  if (t.latency_s > 0) t.efficiency = std::sqrt(std::max(0.0, t.compute_util * memory_util));
  const std::size_t n_obj = std::min(objectives_.size(), out.objectives.size());
  const EvaluatedStep step{.stages = out.stages, .totals = t, .memory = out.memory};
  for (std::size_t i = 0; i < n_obj; ++i) {
    out.objectives[i] = objectives_[i].objective->evaluate(ctx_, workload_, c, step);
    after_call(*objectives_[i].objective, "objective", "evaluate");
  }
  out.non_finite = first_non_finite(t, out.memory, out.objectives.data(), n_obj);
  if (out.non_finite != NonFinite::none) out.feasible = false;
}

void Evaluator::time_workload(const Workload& w, const ParallelConfig& c, Evaluation& out) const {
  out.config = c;
  out.totals = StepTotals{};
  out.totals.tier_count = 1;
  out.stages.clear();
  if (w.mode == Mode::decode)
    decode(w, c, out);
  else
    prefill(w, c, out);
}

double Evaluator::chunk_time(const Workload& w, const ParallelConfig& c, const Layout& layout,
                             std::int64_t prompts, std::int64_t tokens, std::int64_t prefix, bool last,
                             std::int64_t decode_batch, double decode_context, Evaluation& scratch) const {
  StepShape sh;
  sh.mode = Mode::prefill;
  sh.batch = prompts;
  sh.tokens = prompts * tokens + decode_batch;
  sh.kv_cached = static_cast<double>(prefix);
  sh.chunk = tokens;
  model_layers(ctx_, sh);
  sh.lm_head = last;
  sh.hops = c.pp - 1;
  sh.mixed_batch = decode_batch;
  sh.mixed_context = decode_context;
  const StepKind kind = decode_batch > 0 ? StepKind::mixed_step : StepKind::prefill_chunk;
  // A chunk timed on its own is one scheduler iteration: chunk 0 of 1, not one of the
  // (prefix + tokens) / tokens chunks of a prompt cut at this size (a model that charges its
  // per-chunk costs on the last chunk would otherwise charge a 1-token chunk after a 4K prefix
  // 4K iterations).
  return time_into(w, sh, kind, 0, c, layout, scratch, scratch.chunk_stages, 1);
}

void Evaluator::memory_of(const Workload& w, const ParallelConfig& c, const Layout& layout,
                          MemoryUsage& out) const {
  memory_->evaluate(ctx_, w, c, layout, out);
  after_call(*memory_, "memory", "evaluate");
}

void Evaluator::layout_for(const ParallelConfig& c, Evaluation& out) const { layout_of(c, out); }

void Evaluator::evaluate(const ParallelConfig& c, Evaluation& out) const {
  // A serving scenario's steps are timed through eval/serving_evaluator.hpp, never as one step.
  if (workload_.mode == Mode::serve)
    throw InputError("workload.mode is serve: its configurations are evaluated by `tessera serve`");
  try {
    evaluate_config(c, out);
    verify_context(c);
  } catch (const PluginError& e) {
    throw_at_configuration(e, c, *ctx_.machine);
  }
}

namespace {
std::string plugin_label(const PluginObject& object, const char* kind) {
  const LoadedPlugin* p = plugin_behind(object);
  return p ? p->id() : std::string(kind);
}
}  // namespace

void Evaluator::check_after_call(const PluginObject& plugin, const char* kind, const char* call) const {
  const char* what = watch_.changed();
  if (what == nullptr) return;
  throw_plugin_error(plugin, kind,
                     std::string(call) + " wrote into " + what +
                         " it was handed as const (through const_cast): what the host shares between "
                         "configurations must not change, or every later evaluation would read the "
                         "change; keep state in the plugin's object (thread-safe) or in the call's output");
}

void Evaluator::context_written(const ParallelConfig& c, const PluginObject* serving) const {
  const char* what = watch_.changed();
  // Find the plugin that writes: the snapshot back, then this configuration again through an
  // Evaluator that checks after every call into a plugin (it throws naming the first that writes).
  watch_.restore();
  if (workload_.mode != Mode::serve) {
    Evaluator probe(ctx_, workload_, latency_, memory_, objectives_);
    probe.check_each_call_ = true;
    Evaluation scratch;
    probe.evaluate_config(c, scratch);
    watch_.restore();
  }
  std::string plugins = plugin_label(*latency_, "latency") + ", " + plugin_label(*memory_, "memory");
  for (const ObjectiveSlot& o : objectives_) plugins += ", " + plugin_label(*o.objective, "objective");
  if (serving) plugins += ", " + plugin_label(*serving, "serving");
  throw PluginError(std::string(what ? what : "the context") +
                    " changed during an evaluation: a plugin wrote through const_cast into what the host "
                    "shares between configurations (plugins called: " +
                    plugins + ")");
}

void throw_at_configuration(const PluginError& e, const ParallelConfig& c, const MachineSpec& machine) {
  throw PluginError(std::string(e.what()) + "; at configuration " + format_config(c, machine));
}

}  // namespace tessera
