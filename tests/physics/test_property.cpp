// Properties of the reference physics over thousands of random valid configurations
// (acceptance tests), per model family — dense GQA, dense MHA with a plain FFN, MoE, MLA —
// in decode and in chunked prefill, on the DGX-H100 and the cube-sip machines:
//   (i)   flops_all_pes - redundant_flops == dp x the step's model FLOPs computed here from
//         the model's dimensions (to 1e-9), and redundant_flops == 0 exactly when nothing is
//         repeated (both directions);
//   (ii)  latency never rises when a bandwidth (HBM, a level's link_bw, an uplink_bw) or the
//         peak FLOP/s rises (x1.5);
//   (iii) scope attention <= full;
//   (iv)  pp never lowers a decode step's latency;
//   (v)   replicate never holds less KV than split;
//   (vi)  overlap <= roofline;
//   (vii) sum(count * visible_s) == totals.latency_s (decode; prefill with pp = 1).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "tessera/physics/layout.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// ---- the step's model FLOPs, from the model's dimensions alone ------------------------------
//
// Per token, a weight matrix of n parameters costs 2n FLOPs (biases are not GEMM work and are
// not counted, as in docs/physics.md §3's table); attention costs, per query-key pair and per query
// head, 4d (QK^T and PV) — MLA: 2(kv_lora + rope) + 2 kv_lora absorbed (decode), 2(nope +
// rope) + 2v materialised (prefill). Decode: T = B new tokens, each attending to S keys.
// Prefill chunk j (c_j tokens, P_j cached): B*c_j*(P_j + c_j/2) pairs (causal). lm_head: the
// last position of each sequence only, once per step (prefill: once per prompt).
double model_step_flops(const ModelSpec& m, const Workload& w) {
  const double L = static_cast<double>(m.layers), H = static_cast<double>(m.hidden);
  const double hq = static_cast<double>(m.heads), hkv = static_cast<double>(m.kv_heads);
  const double d = static_cast<double>(m.head_dim), B = static_cast<double>(w.batch);
  const bool dec = w.mode == Mode::decode;

  double tokens = 0, pairs = 0;  // new tokens of the step (per replica), query-key pairs per head
  if (dec) {
    tokens = B;
    pairs = B * static_cast<double>(w.context);
  } else {
    const std::int64_t S = w.context, c = w.chunk > 0 ? w.chunk : S;
    for (std::int64_t P = 0; P < S; P += c) {
      const double cj = static_cast<double>(std::min(c, S - P));
      tokens += B * cj;
      pairs += B * cj * (static_cast<double>(P) + cj / 2);
    }
  }

  double attn_matrix = 0, per_pair = 0;  // attention weight elements touched per token
  if (m.has_mla) {
    const double ql = static_cast<double>(m.mla.q_lora_rank), kvl = static_cast<double>(m.mla.kv_lora_rank);
    const double rope = static_cast<double>(m.mla.rope_dim), nope = static_cast<double>(m.mla.nope_dim);
    const double v = static_cast<double>(m.mla.v_head_dim);
    const double q = ql > 0 ? H * ql + ql * hq * (nope + rope) : H * hq * (nope + rope);
    const double kv_down = H * (kvl + rope);
    // decode: W_UK absorbed into the query (h_q*nope*kv_lora) and W_UV un-absorbed after
    // attention (h_q*kv_lora*v); prefill: K_nope and V materialised (h_q*kv_lora*(nope+v)).
    const double kv_up = dec ? hq * nope * kvl + hq * kvl * v : hq * kvl * (nope + v);
    attn_matrix = q + kv_down + kv_up + hq * v * H;
    per_pair = dec ? 2 * (kvl + rope) + 2 * kvl : 2 * (nope + rope) + 2 * v;
  } else {
    attn_matrix = H * d * (hq + 2 * hkv) + hq * d * H;
    per_pair = 4 * d;
  }
  double f = L * (2 * tokens * attn_matrix + per_pair * hq * pairs);
  if (w.scope == Scope::attention) return f;

  const double mats = m.ffn_kind == FfnKind::gated ? 3.0 : 2.0;
  const double moe_layers = m.has_moe ? static_cast<double>(m.layers - m.moe.dense_layers) : 0.0;
  f += (L - moe_layers) * 2 * tokens * mats * H * static_cast<double>(m.ffn);
  if (m.has_moe) {
    const double Pe = mats * H * static_cast<double>(m.moe.expert_ffn);
    const double E = static_cast<double>(m.moe.experts), K = static_cast<double>(m.moe.top_k);
    const double Es = static_cast<double>(m.moe.shared_experts);
    f += moe_layers * 2 * tokens * (H * E + K * Pe + Es * Pe);
  }
  f += 2 * B * H * static_cast<double>(m.vocab);
  return f;
}

// When the model's work is repeated on several PEs (docs/physics.md §3, §4, §9): decode with
// cp > 1 (every CP rank computes the same tokens' projections); GQA with r = tp/h_kv > 1 (the
// r PEs sharing a KV head all project it); MLA with tp > 1 (the down-projections are
// replicated on the TP ranks); the MoE router on every TP (and, in decode, CP) rank.
bool expect_redundancy(const ModelSpec& m, const Workload& w, const ParallelConfig& c) {
  const bool dec = w.mode == Mode::decode;
  if (dec && c.cp > 1) return true;
  if (!m.has_mla && c.tp > m.kv_heads) return true;
  if (m.has_mla && c.tp > 1) return true;
  if (w.scope == Scope::full && m.has_moe && m.moe_layers() > 0 && (c.tp > 1 || (dec && c.cp > 1)))
    return true;
  return false;
}

double stage_sum(const Evaluation& e) {
  double t = 0;
  for (const Stage& s : e.stages) t += s.count * s.visible_s;
  return t;
}

// ---- random valid configurations ------------------------------------------------------------

template <class T>
T pick(std::mt19937& rng, const std::vector<T>& v) {
  return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
}

struct Family {
  std::string name;
  std::vector<ModelSpec> models;
};

std::vector<Family> families() {
  return {
      {"dense GQA", {llama31_70b(), llama31_8b()}},
      {"dense MHA plain", {gpt3_175b()}},
      {"MoE", {mixtral_8x7b()}},
      {"MLA", {deepseek_v3()}},
  };
}

struct Sample {
  ModelSpec model;
  MachineSpec machine;
  Workload workload;
  ParallelConfig config;
};

ParallelConfig random_config(std::mt19937& rng, const ModelSpec& m, const MachineSpec& mc, Mode mode,
                             bool allow_pp) {
  ParallelConfig c;
  c.cp = pick<int>(rng, {1, 1, 2, 4, 8, 16, 32});
  c.tp = pick<int>(rng, {1, 2, 4, 8, 16, 32});
  c.pp = allow_pp ? pick<int>(rng, {1, 1, 2, 4, 8}) : 1;
  c.dp = pick<int>(rng, {1, 1, 2, 4});
  c.ep = m.has_moe ? pick<int>(rng, {1, 2, 4, 8, 16, 32}) : 1;
  c.kv_shard_mode = pick(rng, std::vector<KvShardMode>{KvShardMode::split, KvShardMode::replicate});
  c.ffn_shard_scope =
      pick(rng, std::vector<FfnShardScope>{FfnShardScope::tp, FfnShardScope::tp_cp, FfnShardScope::tp_cp_dp});
  const int top = static_cast<int>(mc.levels.size());
  c.tp_placement = static_cast<std::int8_t>(std::uniform_int_distribution<int>(0, top - 1)(rng));
  c.cp_placement = static_cast<std::int8_t>(std::uniform_int_distribution<int>(0, top - 1)(rng));
  std::vector<CpRingVariant> variants{CpRingVariant::kv, CpRingVariant::qoml};
  if (mode == Mode::decode) variants.push_back(CpRingVariant::tree);
  c.cp_ring_variant = pick(rng, variants);
  return canonicalize(m, c);
}

Workload random_workload(std::mt19937& rng, Mode mode) {
  if (mode == Mode::decode)
    return decode(pick<std::int64_t>(rng, {1024, 4096, 32768, 131072}),
                  pick<std::int64_t>(rng, {1, 2, 4, 8, 16, 64}));
  const std::int64_t S = pick<std::int64_t>(rng, {1024, 2048, 4096, 8192, 16384, 32768});
  const std::int64_t chunk = pick<std::int64_t>(rng, {0, S / 2, S / 4, S / 8, 3000});
  return prefill(S, pick<std::int64_t>(rng, {1, 2, 4}), chunk);
}

void random_dtypes(std::mt19937& rng, ModelSpec& m) {
  m.dtype.weights = pick(rng, std::vector<DType>{DType::bf16, DType::bf16, DType::fp8, DType::int4});
  m.dtype.kv = pick(rng, std::vector<DType>{DType::bf16, DType::fp8});
  m.dtype.activations = pick(rng, std::vector<DType>{DType::bf16, DType::bf16, DType::fp8});
  // Per-part formats, the attention math and the dispatch payload (unset = the default).
  using O = std::optional<DType>;
  m.dtype.attention_weights = pick(rng, std::vector<O>{std::nullopt, std::nullopt, DType::fp8});
  m.dtype.expert_weights = pick(rng, std::vector<O>{std::nullopt, DType::nvfp4, DType::mxfp4, DType::fp8});
  m.dtype.lm_head_weights = pick(rng, std::vector<O>{std::nullopt, DType::bf16});
  m.dtype.attention = pick(rng, std::vector<O>{std::nullopt, std::nullopt, DType::fp8});
  m.dtype.dispatch = pick(rng, std::vector<O>{std::nullopt, DType::nvfp4, DType::mxfp8});
}

// Draws until `n` valid configurations are found, calling `fn` on each.
void for_random_valid(std::uint32_t seed, const Family& fam, Mode mode, bool allow_pp, int n,
                      const std::function<void(const Sample&, const Evaluation&)>& fn) {
  std::mt19937 rng(seed);
  const std::vector<MachineSpec> machines{dgx_h100(), cube_sip()};
  int found = 0, tries = 0;
  while (found < n) {
    REQUIRE(++tries < 200 * n);
    Sample s;
    s.model = pick(rng, fam.models);
    random_dtypes(rng, s.model);
    s.machine = pick(rng, machines);
    s.workload = random_workload(rng, mode);
    s.config = random_config(rng, s.model, s.machine, mode, allow_pp);
    Layout lay;
    compute_layout(s.model, s.machine, s.workload, s.config, lay);
    if (!lay.valid) continue;
    const Evaluation e = evaluate(s.model, s.machine, s.workload, s.config);
    REQUIRE(e.valid);
    ++found;
    fn(s, e);
  }
}

std::string describe(const Sample& s) {
  std::ostringstream os;
  os << s.model.name << " on " << s.machine.name << ", "
     << (s.workload.mode == Mode::decode ? "decode" : "prefill") << " S=" << s.workload.context
     << " B=" << s.workload.batch << " chunk=" << s.workload.chunk << ", "
     << format_config(s.config, s.machine) << ", dtypes w/kv/a " << dtype_name(s.model.dtype.weights) << "/"
     << dtype_name(s.model.dtype.kv) << "/" << dtype_name(s.model.dtype.activations)
     << ", attention/experts/dispatch " << dtype_name(s.model.dtype.attention_kernel()) << "/"
     << dtype_name(s.model.dtype.weights_of(WeightPart::experts)) << "/"
     << dtype_name(s.model.dtype.dispatch_payload());
  return os.str();
}

constexpr int kPerFamily = 1000;
constexpr double kRel = 1e-9;

bool close(double a, double b, double rel) {
  return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

}  // namespace

// (i) and (vii) ------------------------------------------------------------------------------
TEST_CASE(
    "property: useful FLOPs == dp x model FLOPs / redundancy exactly when work repeats / stages sum to "
    "latency",
    "[physics][property]") {
  std::uint32_t seed = 1000;
  for (const Family& fam : families()) {
    for (Mode mode : {Mode::decode, Mode::prefill}) {
      int redundant_seen = 0, clean_seen = 0, failures = 0;
      // prefill: pp = 1 (the FLOPs identity and the stage sum hold per chunk there)
      for_random_valid(
          seed++, fam, mode, mode == Mode::decode, kPerFamily, [&](const Sample& s, const Evaluation& e) {
            const double model = static_cast<double>(s.config.dp) * model_step_flops(s.model, s.workload);
            const double useful = e.totals.flops_all_pes - e.totals.redundant_flops;
            const bool ok_flops = close(useful, model, kRel);
            const bool want_red = expect_redundancy(s.model, s.workload, s.config);
            const bool ok_red = want_red ? e.totals.redundant_flops > 0 : e.totals.redundant_flops == 0;
            const bool ok_sum = close(stage_sum(e), e.totals.latency_s, kRel);
            (want_red ? redundant_seen : clean_seen)++;
            if (!(ok_flops && ok_red && ok_sum) && ++failures <= 5) {
              INFO(fam.name << ": " << describe(s));
              INFO("useful " << useful << " model x dp " << model << " (rel " << (useful / model - 1)
                             << "), redundant " << e.totals.redundant_flops << " expected "
                             << (want_red ? ">0" : "0") << "; sum(count*visible) " << stage_sum(e)
                             << " latency " << e.totals.latency_s);
              CHECK(ok_flops);
              CHECK(ok_red);
              CHECK(ok_sum);
            }
          });
      INFO(fam.name << (mode == Mode::decode ? " decode" : " prefill") << ": " << failures << " of "
                    << kPerFamily << " configurations fail");
      CHECK(failures == 0);
      // Both directions of the redundancy rule were exercised — except dense MHA in prefill,
      // where nothing can repeat: r = tp/h_kv <= 32/96 < 1, no router, and prefill CP ranks
      // hold different tokens.
      if (fam.name != "dense MHA plain" || mode == Mode::decode) CHECK(redundant_seen > 0);
      CHECK(clean_seen > 0);
    }
  }
}

// (ii), (iii), (iv), (v), (vi) ------------------------------------------------------------------
TEST_CASE(
    "property: monotone in bandwidths and peak / attention <= full / pp never helps decode / "
    "replicate >= split KV / overlap <= roofline",
    "[physics][property]") {
  std::uint32_t seed = 2000;
  for (const Family& fam : families()) {
    for (Mode mode : {Mode::decode, Mode::prefill}) {
      int failures = 0, pp_checked = 0, rep_checked = 0;
      const auto fail = [&](const Sample& s, const std::string& what, double a, double b) {
        if (++failures > 8) return;
        INFO(fam.name << ": " << describe(s));
        INFO(what << ": " << a << " vs " << b);
        CHECK(false);
      };
      for_random_valid(seed++, fam, mode, true, kPerFamily, [&](const Sample& s, const Evaluation& e) {
        const double t = e.totals.latency_s;
        const double slack = 1 + 1e-12;
        // (ii) one knob x1.5 at a time
        std::vector<std::pair<std::string, MachineSpec>> faster;
        {
          MachineSpec m = s.machine;
          m.pe.hbm_bandwidth *= 1.5;
          faster.emplace_back("hbm bandwidth", m);
          m = s.machine;
          for (double& p : m.pe.flops) p *= 1.5;
          faster.emplace_back("peak FLOP/s", m);
          for (std::size_t i = 0; i < s.machine.levels.size(); ++i) {
            m = s.machine;
            m.levels[i].link_bw *= 1.5;
            faster.emplace_back(s.machine.levels[i].name + " link_bw", m);
            if (s.machine.levels[i].uplink_bw > 0) {
              m = s.machine;
              m.levels[i].uplink_bw *= 1.5;
              faster.emplace_back(s.machine.levels[i].name + " uplink_bw", m);
            }
          }
        }
        for (const auto& [knob, m] : faster) {
          for (Latency lat : {Latency::overlap, Latency::roofline}) {
            const Evaluation base =
                lat == Latency::overlap ? e : evaluate(s.model, s.machine, s.workload, s.config, lat);
            const Evaluation f = evaluate(s.model, m, s.workload, s.config, lat);
            if (!(f.totals.latency_s <= base.totals.latency_s * slack))
              fail(s,
                   "faster " + knob + (lat == Latency::overlap ? " (overlap)" : " (roofline)") +
                       " raised latency",
                   f.totals.latency_s, base.totals.latency_s);
          }
        }
        // (iii) attention only <= full
        {
          Workload w = s.workload;
          w.scope = Scope::attention;
          const Evaluation a = evaluate(s.model, s.machine, w, s.config);
          if (!(a.totals.latency_s <= t * slack)) fail(s, "scope attention > full", a.totals.latency_s, t);
          if (!(a.memory.used_bytes == e.memory.used_bytes))
            fail(s, "scope changed memory", a.memory.used_bytes, e.memory.used_bytes);
        }
        // (iv) pp never lowers a decode step
        if (mode == Mode::decode && s.config.pp > 1) {
          ParallelConfig c1 = s.config;
          c1.pp = 1;
          const Evaluation one = evaluate(s.model, s.machine, s.workload, c1);
          ++pp_checked;
          if (!(one.totals.latency_s <= t * slack))
            fail(s, "pp>1 decode faster than pp=1", t, one.totals.latency_s);
        }
        // (v) replicate never holds less KV than split (r > 1; canonical otherwise)
        {
          const double hkv = s.model.has_mla ? 1.0 : static_cast<double>(s.model.kv_heads);
          if (s.config.tp > hkv) {
            ParallelConfig cs = s.config, cr = s.config;
            cs.kv_shard_mode = KvShardMode::split;
            cr.kv_shard_mode = KvShardMode::replicate;
            const Evaluation es = evaluate(s.model, s.machine, s.workload, cs);
            const Evaluation er = evaluate(s.model, s.machine, s.workload, cr);
            ++rep_checked;
            if (!(er.memory.kv_bytes >= es.memory.kv_bytes))
              fail(s, "replicate KV < split KV", er.memory.kv_bytes, es.memory.kv_bytes);
          }
        }
        // (vi) overlap <= roofline
        {
          const Evaluation r = evaluate(s.model, s.machine, s.workload, s.config, Latency::roofline);
          if (!(t <= r.totals.latency_s * slack)) fail(s, "overlap > roofline", t, r.totals.latency_s);
        }
      });
      INFO(fam.name << (mode == Mode::decode ? " decode" : " prefill") << ": " << failures
                    << " property failures");
      CHECK(failures == 0);
      if (mode == Mode::decode) CHECK(pp_checked > 0);
      // r > 1 needs tp > h_kv: never for GPT-3's 96 KV heads with tp <= 32.
      if (fam.name != "dense MHA plain") CHECK(rep_checked > 0);
    }
  }
}

// Prefill with pp > 1: the accounting still covers the whole model once (docs/physics.md §9: "each
// pipeline stage counted once"), so the FLOPs identity must hold there too.
TEST_CASE("property: FLOPs identity in pipelined prefill (pp > 1)", "[physics][property][pp]") {
  std::uint32_t seed = 3000;
  for (const Family& fam : families()) {
    int failures = 0, checked = 0;
    for_random_valid(seed++, fam, Mode::prefill, true, 300, [&](const Sample& s, const Evaluation& e) {
      if (s.config.pp == 1) return;
      ++checked;
      const double model = static_cast<double>(s.config.dp) * model_step_flops(s.model, s.workload);
      const double useful = e.totals.flops_all_pes - e.totals.redundant_flops;
      if (!close(useful, model, kRel) && ++failures <= 3) {
        INFO(fam.name << ": " << describe(s));
        INFO("useful " << useful << " model x dp " << model << " (rel " << (useful / model - 1) << ")");
        CHECK(false);
      }
    });
    INFO(fam.name << ": " << failures << " of " << checked << " pipelined prefills fail the identity");
    CHECK(failures == 0);
    CHECK(checked > 0);
  }
}

// Biases are not GEMM work: the dense FFN's FLOPs count its matrices only (docs/physics.md §4's table,
// step_work.cpp ffn.up/ffn.down). An expert is the same FFN of width I_e, so a MoE model with
// MLP biases (e.g. GPT-OSS) must satisfy the same identity.
// moe.experts and moe.shared count matrix FLOPs only, like ffn.up/ffn.down (a bias is bytes,
// not GEMM work); this test found the earlier mismatch.
TEST_CASE("property: MoE experts count matrix FLOPs only / like the dense FFN (MLP biases)",
          "[physics][property][moe]") {
  ModelSpec m = mixtral_8x7b();
  m.mlp_bias = true;
  const MachineSpec mc = dgx_h100();
  for (Mode mode : {Mode::decode, Mode::prefill}) {
    const Workload w = mode == Mode::decode ? decode(4096, 4) : prefill(4096, 1, 1024);
    ParallelConfig c;
    c.tp = 8;
    const Evaluation e = evaluate(m, mc, w, c);
    REQUIRE(e.valid);
    const double useful = e.totals.flops_all_pes - e.totals.redundant_flops;
    const double model = model_step_flops(m, w);
    INFO((mode == Mode::decode ? "decode" : "prefill")
         << ": useful " << useful << " model " << model << " (rel " << (useful / model - 1) << ")");
    CHECK(close(useful, model, kRel));
  }
}
