// latency/calibrated: schema and shipped parameters, and properties against `overlap`.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <cmath>
#include <set>
#include <string>

#include "analysis/accuracy/accuracy_study.hpp"
#include "calibrated.hpp"
#include "eval/grid_space.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "report/study_text/explain_report.hpp"
#include "scenario/scenario_loader.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using tessera::test::registry;

namespace {

// The calibration tests' small scenarios (tests/calibration/fixtures), shared with `compare`'s tests.
std::string fixture(const char* name) {
  return std::string(TESSERA_SOURCE_DIR) + "/tests/calibration/fixtures/" + name;
}

}  // namespace

TEST_CASE("calibrated: every framework choice has a profile and every profile a choice", "[calibrated]") {
  const LoadedPlugin* p = registry().find(PluginKind::latency, "calibrated");
  REQUIRE(p != nullptr);
  const PluginDescriptor& d = *p->descriptor;
  // framework, framework_version, tp_overlap, tp_overlap_chunks, _min_chunk_tokens, fusion,
  // profile_overrides and the six profile values it may take from parameters
  REQUIRE(d.param_count == 13);
  REQUIRE(std::string(d.params[6].name) == "profile_overrides");
  for (std::size_t k = 0; k < 6; ++k) {
    // The override parameters' ranges are the documented profile ranges (tessera calibrate
    // fits inside them).
    const ParamSpec& spec = d.params[7 + k];
    const plugins::ProfileRange& r = plugins::profile_ranges()[k];
    INFO(spec.name);
    CHECK(std::string(spec.name) == r.name);
    CHECK(std::abs(spec.min - r.lo) <= 1e-12);
    CHECK(std::abs(spec.max - r.hi) <= 1e-12 * r.hi);
  }
  REQUIRE(std::string(d.params[0].name) == "framework");
  REQUIRE(std::string(d.params[1].name) == "framework_version");
  std::set<std::string> choices;
  for (std::uint32_t i = 0; i < d.params[0].choice_count; ++i) choices.insert(d.params[0].choices[i].value);
  std::set<std::string> profiles;
  for (const auto& prof : plugins::serving_stack_profiles()) {
    profiles.insert(prof.name);
    INFO(prof.label());
    // Every shipped value lies inside its documented physical range.
    const double v[6] = {prof.launch_overhead,  prof.collective_overhead, prof.decode_step_overhead,
                         prof.prefill_overhead, prof.decode_seq_overhead, prof.prefill_chunk_overhead};
    for (std::size_t k = 0; k < 6; ++k) {
      const plugins::ProfileRange& r = plugins::profile_ranges()[k];
      INFO(r.name);
      CHECK(v[k] >= r.lo);
      CHECK(v[k] <= r.hi);
    }
    CHECK(std::string(prof.provenance) != "");
  }
  CHECK(choices == profiles);
  CHECK(std::string(d.params[0].default_value) == "modern-stack");
}

TEST_CASE("calibrated: shipped efficiency blocks validate - efficiencies above 0 and at most 1",
          "[calibrated]") {
  for (const char* stem :
       {"dgx-a100-40gb", "dgx-a100-80gb", "dgx-h100", "dgx-h200", "hgx-h800", "cube-sip"}) {
    const std::string file = std::string(TESSERA_SOURCE_DIR) + "/machines/" + stem + ".yaml";
    accuracy::RowPlan plan;
    plan.machine_file = file;
    plan.measure = accuracy::Measure::gemm;
    accuracy::DataRow row;
    const accuracy::PreparedRow prep = accuracy::prepare_row(row, plan);
    if (std::string(stem) != "cube-sip") CHECK(prep.efficiency_raw.size() == 7);  // family + 6 values
    const ParamSet eff = registry().machine_params("calibrated", prep.efficiency_raw, file);
    const plugins::FamilyEfficiency f = plugins::family_from_params(eff);
    INFO(stem);
    for (double e : {f.gemm_efficiency, f.gemm_8bit_efficiency, f.hbm_efficiency, f.attention_efficiency}) {
      CHECK(e > 0);
      CHECK(e <= 1);
    }
    CHECK(f.gemm_m_half >= 0);
    CHECK(f.kernel_overhead >= 0);
    CHECK(f.kernel_overhead < 1e-3);
  }
}

TEST_CASE("calibrated: a bad efficiency value is refused by the schema", "[calibrated]") {
  RawParam p;
  p.key = "hbm_efficiency";
  p.text = "1.5";
  CHECK_THROWS_AS(registry().machine_params("calibrated", {p}, "test.yaml"), InputError);
  RawParam q;
  q.key = "gemm_efficency";  // misspelled
  q.text = "0.5";
  CHECK_THROWS_AS(registry().machine_params("calibrated", {q}, "test.yaml"), InputError);
}

TEST_CASE("calibrated: never faster than overlap stage by stage - accounting unchanged", "[calibrated]") {
  for (const char* file : {"compare-small.yaml", "prefill-small.yaml"}) {
    const Scenario sc = load_scenario(fixture(file), LoadOptions{});
    const std::size_t cal = sc.plugins.latency.size() - 1;
    Session overlap(sc, registry(), 0);
    Session calibrated(sc, registry(), cal);
    REQUIRE(calibrated.latency_name() == "calibrated");
    const GridSpace space(sc.sweep, overlap.model(), overlap.machine(), overlap.workload());
    REQUIRE(!space.valid_configs().empty());
    Evaluation a, b;
    for (const ParallelConfig& c : space.valid_configs()) {
      overlap.evaluator().evaluate(c, a);
      calibrated.evaluator().evaluate(c, b);
      INFO(file << " " << format_config(c, overlap.machine()));
      REQUIRE(b.stages.size == a.stages.size + 1);
      const Stage& last = b.stages.items[static_cast<std::size_t>(b.stages.size - 1)];
      CHECK(std::string(last.name) == "step.overhead");
      CHECK(last.block == StageBlock::head);
      CHECK(last.count == 1);
      CHECK(last.flops == 0);  // a pure overhead: no work, nothing left from a reused slot
      CHECK(last.hbm_bytes == 0);
      CHECK(last.compute_s == 0);
      CHECK(last.memory_s == 0);
      for (int i = 0; i < a.stages.size; ++i) {
        const Stage& sa = a.stages.items[static_cast<std::size_t>(i)];
        const Stage& sb = b.stages.items[static_cast<std::size_t>(i)];
        CHECK(std::string(sa.name) == sb.name);
        CHECK(sb.visible_s >= sa.visible_s * (1 - 1e-12));
      }
      CHECK(b.totals.latency_s >= a.totals.latency_s);
      CHECK(b.totals.flops_all_pes == Approx(a.totals.flops_all_pes));
      CHECK(b.totals.hbm_bytes_all_pes == Approx(a.totals.hbm_bytes_all_pes));
      if (!a.totals.prefill_pipelined) {
        double sum = 0;
        for (const Stage& s : b.stages) sum += s.count * s.visible_s;
        CHECK(sum == Approx(b.totals.latency_s));
      }
    }
  }
}

TEST_CASE("calibrated: small-M GEMMs stream weights - large-M GEMMs run at gemm_efficiency", "[calibrated]") {
  ModelSpec m;
  m.name = "k";
  m.layers = m.hidden = m.heads = m.kv_heads = m.head_dim = m.ffn = m.vocab = 1;
  MachineSpec mach;
  mach.pe.flops[static_cast<std::size_t>(DType::bf16)] = 1e15;
  mach.pe.hbm_bandwidth = 4e12;
  mach.levels.push_back({"node", 8, 4e11, 3e-6, LinkTopology::switched, 0});
  const EvalContext ctx = make_eval_context(m, mach);
  plugins::FamilyEfficiency fam;
  fam.gemm_efficiency = 0.8;
  fam.gemm_m_half = 32;
  fam.hbm_efficiency = 0.9;
  fam.kernel_overhead = 5e-6;
  plugins::ServingStackProfile none;
  none.name = "none";
  const plugins::CalibratedLatency lat(none);
  auto gemm = [&](double M, double K, double N) {
    StepWork w;
    StageWork& s = w.push();
    s.name = "gemm";
    s.count = 1;
    s.kernels = 1;
    s.flops = 2 * M * N * K;
    s.hbm_bytes = 2 * (M * K + K * N + M * N);
    s.gemm = {M, N, K};
    StageList out;
    lat.time_step_with(ctx, fam, w, out);
    REQUIRE(out.size == 2);
    return out.items[0];
  };
  const Stage small = gemm(1, 8192, 57344);  // decode: weight streaming
  CHECK(small.bound == Bound::memory);
  CHECK(small.visible_s == Approx(2.0 * (8192 + 8192.0 * 57344 + 57344) / (4e12 * 0.9) + 5e-6));
  const Stage big = gemm(8192, 8192, 8192);
  CHECK(big.bound == Bound::compute);
  const double eff = 0.8 * 8192 / (8192 + 32.0);
  CHECK(big.visible_s == Approx(2.0 * 8192 * 8192 * 8192 / (1e15 * eff) + 5e-6));
}

TEST_CASE("calibrated: host launch cost is exposed only when the host is the bottleneck", "[calibrated]") {
  const Scenario sc = load_scenario(fixture("compare-small.yaml"), LoadOptions{});
  Session s(sc, registry(), 2);
  plugins::ServingStackProfile fast, slow;
  fast.name = "fast";
  fast.launch_overhead = 1e-6;
  slow.name = "slow";
  slow.launch_overhead = 200e-6;  // far slower than any kernel
  const plugins::CalibratedLatency lf(fast), ls(slow);
  ParallelConfig c;
  c.tp = 8;
  Layout lay;
  compute_layout(s.model(), s.machine(), s.workload(), c, lay);
  StepShape sh;
  sh.mode = Mode::decode;
  sh.batch = sh.tokens = 4;
  sh.kv_cached = 8192;
  sh.layers = static_cast<double>(s.model().layers);
  sh.dense_layers = sh.layers;
  StepWork w;
  build_step_work(s.context(), s.workload(), c, lay, sh, w);
  StageList a, b;
  const StepCall call{.work = w, .config = c, .layout = lay, .shape = sh, .workload = s.workload()};
  lf.time_step(s.context(), call, a);
  ls.time_step(s.context(), call, b);
  double gpu = 0, kernels = 0;
  for (int i = 0; i < w.size; ++i) {
    gpu += a.items[static_cast<std::size_t>(i)].count * a.items[static_cast<std::size_t>(i)].visible_s;
    kernels += w.stages[static_cast<std::size_t>(i)].count * w.stages[static_cast<std::size_t>(i)].kernels;
  }
  const Stage& oa = a.items[static_cast<std::size_t>(a.size - 1)];
  const Stage& ob = b.items[static_cast<std::size_t>(b.size - 1)];
  CHECK(oa.visible_s == Approx(1e-6));                    // GPU-bound: only the first launch shows
  CHECK(ob.visible_s == Approx(kernels * 200e-6 - gpu));  // host-bound: the step takes the host's time
}

namespace {

// A toy machine and model for hand-computed calibrated stages: 1e15 FLOP/s bf16, 4e12 B/s HBM,
// one node of 8 at 4e11 B/s and 3 us; H = 4096, bf16.
struct Toy {
  ModelSpec model;
  MachineSpec machine;
  EvalContext ctx;
  Mode mode = Mode::prefill;  // the steps' workload's
  plugins::FamilyEfficiency fam;
  Toy() {
    model.name = "toy";
    model.layers = model.heads = model.kv_heads = model.head_dim = model.ffn = model.vocab = 1;
    model.hidden = 4096;
    machine.pe.flops[static_cast<std::size_t>(DType::bf16)] = 1e15;
    machine.pe.hbm_bandwidth = 4e12;
    machine.levels.push_back({"node", 8, 4e11, 3e-6, LinkTopology::switched, 0});
    ctx = make_eval_context(model, machine);
    fam.gemm_efficiency = 0.8;
    fam.gemm_m_half = 32;
    fam.hbm_efficiency = 0.9;
    fam.kernel_overhead = 5e-6;
  }
};

// GEMM M x K -> N (bf16) followed by the all-reduce of its M x N output over `ranks`.
void gemm_then_allreduce(StepWork& w, const char* gemm_name, const char* reduce_name, StageBlock block,
                         double M, double K, double N, int ranks, int kernels) {
  StageWork& g = w.push();
  g.name = gemm_name;
  g.block = block;
  g.count = 1;
  g.kernels = kernels;
  g.flops = 2 * M * N * K;
  g.hbm_bytes = 2 * (M * K + K * N + M * N);
  g.gemm = {M, N, K};
  StageWork& r = w.push();
  r.name = reduce_name;
  r.block = block;
  r.count = 1;
  r.kernels = 1;
  r.comm_count = 1;
  r.comms[0].kind = CommKind::all_reduce;
  r.comms[0].ranks = ranks;
  r.comms[0].bytes = M * N * 2;
  r.comms[0].link = {4e11, 3e-6, 1, 1};
}

}  // namespace

// ffn.down of M = 8192 tokens, K = N = 4096, then its all-reduce over 2 ranks, n = 4 chunks.
//   GEMM: 2·8192·4096·4096 FLOP at 1e15·0.8·8192/8224 -> 3.449396e-4 s (memory 4.660338e-5 s).
//   Chunks of 2048 rows run at 0.8·2048/2080: compute × 8320/8224 -> 3.489661e-4 s (memory with 3
//   weight re-reads 7.456540e-5 s): Δg = 4.026532e-6 s, g = 8.724152e-5 s.
//   All-reduce of 67,108,864 B at the link rate (no second derate): M/4e11 + 2·3e-6 = 1.737722e-4 s;
//   a chunk M/4/4e11 + 6e-6 = 4.794304e-5 s < g, so only the last chunk shows.
//   Per chunk one kernel_overhead (stage_overhead 0): 4 · 5e-6.
//   exposed = 4.026532e-6 + 4.794304e-5 + 2e-5 = 7.196957e-5 s.
TEST_CASE("calibrated: chunked tp_overlap - GEMM chunks at eff(M/n) and one kernel per chunk",
          "[calibrated]") {
  const Toy t;
  plugins::ServingStackProfile none;
  none.name = "none";
  TpOverlapPolicy chunked;
  chunked.mode = TpOverlap::chunked;
  const plugins::CalibratedLatency off(none), on(none, chunked);
  StepWork w;
  gemm_then_allreduce(w, "ffn.down", "ffn.reduce", StageBlock::ffn, 8192, 4096, 4096, 2, 1);
  StageList a, b;
  off.time_step_with(t.ctx, t.fam, w, a, 0, 1, t.mode);
  on.time_step_with(t.ctx, t.fam, w, b, 0, 1, t.mode);
  CHECK(a.items[0].compute_s == Approx(3.449396e-4).epsilon(1e-6));
  CHECK(a.items[1].visible_s == Approx(1.737722e-4).epsilon(1e-6));
  CHECK(b.items[1].comm_s == Approx(1.737722e-4).epsilon(1e-6));
  CHECK(b.items[1].visible_s == Approx(7.196957e-5).epsilon(1e-6));
  CHECK(b.items[0].visible_s == a.items[0].visible_s);  // the GEMM's cost of chunking is in the reduce
  // 8 chunks: the last chunk's all-reduce is smaller but every chunk pays a kernel; still a gain.
  TpOverlapPolicy eight = chunked;
  eight.chunks = 8;
  const plugins::CalibratedLatency on8(none, eight);
  StageList c;
  on8.time_step_with(t.ctx, t.fam, w, c, 0, 1, t.mode);
  CHECK(c.items[1].visible_s < a.items[1].visible_s);
  // 512 tokens: 128-row chunks are below the ridge w·rate/(2·hbm) = 2·1e15·0.8·512/544/(2·3.6e12)
  // = 209 rows: nothing is chunked.
  StepWork small;
  gemm_then_allreduce(small, "ffn.down", "ffn.reduce", StageBlock::ffn, 512, 4096, 4096, 2, 1);
  StageList d, e;
  off.time_step_with(t.ctx, t.fam, small, d, 0, 1, t.mode);
  on.time_step_with(t.ctx, t.fam, small, e, 0, 1, t.mode);
  CHECK(e.items[1].visible_s == d.items[1].visible_s);
}

// allreduce_norm_fusion: attn.qkv (3 kernels) and ffn.up (2) each lose their norm kernel — one
// kernel_overhead, 5e-6 s, on the GPU and one launch on the host; no stage's communication moves.
TEST_CASE("calibrated: allreduce_norm_fusion removes one kernel per fused reduction and hides nothing",
          "[calibrated]") {
  const Toy t;
  plugins::ServingStackProfile prof;
  prof.name = "p";
  prof.launch_overhead = 1e-6;
  const plugins::CalibratedLatency off(prof), on(prof, TpOverlapPolicy{}, true);
  auto step = [](double tokens) {
    StepWork w;
    StageWork& q = w.push();
    q.name = "attn.qkv";
    q.count = 1;
    q.kernels = 3;
    q.flops = 2 * tokens * 4096 * 6144;
    q.hbm_bytes = 2 * (tokens * 4096 + 4096.0 * 6144 + tokens * 6144);
    q.gemm = {tokens, 6144, 4096};
    gemm_then_allreduce(w, "attn.out", "attn.tp_reduce", StageBlock::attention, tokens, 4096, 4096, 8, 1);
    StageWork& u = w.push();
    u.name = "ffn.up";
    u.block = StageBlock::ffn;
    u.count = 1;
    u.kernels = 2;
    u.flops = 2 * tokens * 4096 * 4096;
    u.hbm_bytes = 2 * (tokens * 4096 + 4096.0 * 4096 + tokens * 4096);
    u.gemm = {tokens, 4096, 4096};
    gemm_then_allreduce(w, "ffn.down", "ffn.reduce", StageBlock::ffn, tokens, 4096, 4096, 8, 1);
    return w;
  };
  for (double tokens : {1.0, 4096.0}) {
    const StepWork w = step(tokens);
    StageList a, b;
    off.time_step_with(t.ctx, t.fam, w, a, 0, 1, t.mode);
    on.time_step_with(t.ctx, t.fam, w, b, 0, 1, t.mode);
    INFO("tokens " << tokens);
    REQUIRE(a.size == b.size);
    CHECK(a.items[0].visible_s - b.items[0].visible_s == Approx(5e-6));  // attn.qkv
    CHECK(a.items[3].visible_s - b.items[3].visible_s == Approx(5e-6));  // ffn.up
    for (int i : {1, 2, 4, 5})
      CHECK(b.items[static_cast<std::size_t>(i)].visible_s == a.items[static_cast<std::size_t>(i)].visible_s);
    for (int i : {2, 5})
      CHECK(b.items[static_cast<std::size_t>(i)].comm_s == a.items[static_cast<std::size_t>(i)].comm_s);
  }
  // Above 16384 tokens the flashinfer/TensorRT-LLM fused kernel is not used: nothing changes.
  const StepWork big = step(32768);
  StageList a, b;
  off.time_step_with(t.ctx, t.fam, big, a, 0, 1, t.mode);
  on.time_step_with(t.ctx, t.fam, big, b, 0, 1, t.mode);
  for (int i = 0; i < a.size; ++i)
    CHECK(b.items[static_cast<std::size_t>(i)].visible_s == a.items[static_cast<std::size_t>(i)].visible_s);
}

// `explain` (JSON) shows the hidden part of a chunked all-reduce: visible_s below comm_s and
// overlapped_s = comm_s - visible_s; the field is absent under the default (nothing overlapped).
// Llama-3.1-8B prefill in 2048-token chunks, TP = 2 (tests/physics/test_tp_overlap.cpp has the
// hand-computed times of the same stages at peak rates).
TEST_CASE("calibrated: explain reports the overlapped time of a chunked all-reduce",
          "[calibrated][explain]") {
  const std::string file = std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-8b-prefill-8k-h100.yaml";
  for (const bool chunked : {false, true}) {
    LoadOptions o;
    o.set = {std::string("plugins.latency={name: calibrated, tp_overlap: ") + (chunked ? "chunked" : "none") +
             "}"};
    const Scenario sc = load_scenario(file, o);
    Session s(sc, registry(), 0);
    ParallelConfig c;
    c.tp = 2;
    Evaluation e;
    s.evaluator().evaluate(c, e);
    REQUIRE(e.valid);
    const nlohmann::json j = explain_json(s, e);
    bool found = false;
    for (const auto& st : j["stages"]) {
      if (st["name"] != "ffn.reduce") continue;
      found = true;
      if (chunked) {
        REQUIRE(st.contains("overlapped_s"));
        CHECK(st["visible_s"].get<double>() < st["comm_s"].get<double>());
        CHECK(st["overlapped_s"].get<double>() ==
              Approx(st["comm_s"].get<double>() - st["visible_s"].get<double>()));
      } else {
        CHECK_FALSE(st.contains("overlapped_s"));
        CHECK(st["visible_s"].get<double>() == st["comm_s"].get<double>());
      }
    }
    CHECK(found);
  }
}

// Each stage takes the 8-bit factor from its own format (README.md "Number formats"):
//   machine bf16 2e15, fp8 4e15, nvfp4 8e15 FLOP/s; gemm_efficiency 0.8, gemm_m_half 32,
//   gemm_8bit_efficiency 0.5, attention_efficiency 0.6, no kernel or HBM cost (bytes 0).
//   A routed-expert GEMM of M = 4096 and 1e12 FLOPs with nvfp4 weights and an nvfp4 dispatch:
//     1e12 / (8e15 * 0.8 * 0.5 * 4096/4128) = 3.1494140625e-4 s;
//   with bf16 dispatch (weight-only nvfp4): 1e12 / (2e15 * 0.8 * 4096/4128) = 6.298828125e-4 s.
//   An attention kernel of 1e12 FLOPs over an fp8 cache with fp8 activations: bf16 math,
//     1e12 / (2e15 * 0.6) = 8.3333333e-4 s; with attention: fp8, 1e12 / (4e15 * 0.6 * 0.5)
//     = 8.3333333e-4 s too (twice the peak, half the efficiency) — and 4.1666667e-4 s with
//     gemm_8bit_efficiency 1.
TEST_CASE("calibrated: the 8-bit efficiency follows each stage's number format", "[calibrated][dtype]") {
  ModelSpec m;
  m.name = "k";
  m.layers = m.hidden = m.heads = m.kv_heads = m.head_dim = m.ffn = m.vocab = 1;
  MachineSpec mach;
  mach.pe.flops[static_cast<std::size_t>(DType::bf16)] = 2e15;
  mach.pe.flops[static_cast<std::size_t>(DType::fp8)] = 4e15;
  mach.pe.flops[static_cast<std::size_t>(DType::nvfp4)] = 8e15;
  mach.pe.hbm_bandwidth = 4e12;
  mach.levels.push_back({"node", 8, 4e11, 3e-6, LinkTopology::switched, 0});
  plugins::FamilyEfficiency fam;
  fam.gemm_efficiency = 0.8;
  fam.gemm_m_half = 32;
  fam.gemm_8bit_efficiency = 0.5;
  fam.attention_efficiency = 0.6;
  fam.kernel_overhead = 0;
  plugins::ServingStackProfile none;
  none.name = "none";
  const plugins::CalibratedLatency lat(none);
  auto time = [&](const ModelSpec& model, bool attention) {
    const EvalContext ctx = make_eval_context(model, mach);
    StepWork w;
    StageWork& s = w.push();
    s.name = attention ? "attn.core" : "moe.experts";
    s.count = 1;
    s.kernels = 1;
    s.flops = 1e12;
    s.attention_kernel = attention;
    s.part = attention ? WeightPart::other : WeightPart::experts;
    s.gemm = {attention ? 0.0 : 4096.0, 1, 1};
    StageList out;
    lat.time_step_with(ctx, fam, w, out);
    return out.items[0].compute_s;
  };
  m.dtype.expert_weights = DType::nvfp4;
  m.dtype.dispatch = DType::nvfp4;
  CHECK(time(m, false) == Approx(3.1494140625e-4));
  m.dtype.dispatch.reset();
  CHECK(time(m, false) == Approx(6.298828125e-4));
  m.dtype.kv = m.dtype.activations = DType::fp8;
  CHECK(time(m, true) == Approx(8.3333333e-4));
  m.dtype.attention = DType::fp8;
  CHECK(time(m, true) == Approx(8.3333333e-4));
  fam.gemm_8bit_efficiency = 1;
  CHECK(time(m, true) == Approx(4.1666667e-4));
}

TEST_CASE("calibrated: a framework version picks the profile whose range holds it", "[calibrated]") {
  using plugins::select_serving_stack_profile;
  CHECK(select_serving_stack_profile("vllm", "0.6.3").profile->label() == "vllm@>=0.6");
  CHECK(select_serving_stack_profile("vllm", "0.12.0").profile->label() == "vllm@>=0.6");
  CHECK(select_serving_stack_profile("vllm", "0.5.4").profile->label() == "vllm@<0.6");
  CHECK(select_serving_stack_profile("tensorrt-llm", "0.7a").profile->label() == "tensorrt-llm@<1.0");
  CHECK(select_serving_stack_profile("tensorrt-llm", "1.1").profile->label() == "tensorrt-llm@>=1.0");
  // Unversioned or "main": the newest profile, and the note says so.
  const plugins::ProfileChoice u = select_serving_stack_profile("tensorrt-llm", "");
  CHECK(u.profile->label() == "tensorrt-llm@>=1.0");
  CHECK(u.note == "unversioned: the newest profile tensorrt-llm@>=1.0");
  CHECK(select_serving_stack_profile("vllm", "main").note == "version 'main': the newest profile vllm@>=0.6");
  CHECK(select_serving_stack_profile("sglang", "").note.empty());  // one profile for every version
  CHECK(select_serving_stack_profile("no-such", "").profile == nullptr);
  // Graph-captured custom all-reduce: no per-call collective cost.
  for (const char* fw : {"vllm", "tensorrt-llm", "sglang", "nim", "modern-stack"})
    CHECK(select_serving_stack_profile(fw, "").profile->collective_overhead == 0);
}

TEST_CASE("calibrated: per-sequence decode cost and per-chunk prefill cost - hand-computed", "[calibrated]") {
  ModelSpec m;
  m.name = "k";
  m.layers = m.hidden = m.heads = m.kv_heads = m.head_dim = m.ffn = m.vocab = 1;
  MachineSpec mach;
  mach.pe.flops[static_cast<std::size_t>(DType::bf16)] = 1e15;
  mach.pe.hbm_bandwidth = 4e12;
  plugins::ServingStackProfile prof;
  prof.name = "test";
  prof.decode_step_overhead = 50e-6;
  prof.decode_seq_overhead = 3e-6;
  prof.prefill_overhead = 1000e-6;
  prof.prefill_chunk_overhead = 100e-6;
  const plugins::CalibratedLatency lat(prof);
  StepWork w;
  StageWork& s = w.push();
  s.name = "lm_head";
  s.block = StageBlock::head;
  s.count = 1;
  s.kernels = 1;
  s.flops = 2;
  s.gemm = {1, 1, 1};
  plugins::FamilyEfficiency fam;
  fam.kernel_overhead = 0;
  StageList out;
  Workload dec;
  dec.mode = Mode::decode;
  lat.time_step_with(make_eval_context(m, mach), fam, w, out, 64, 1, dec.mode);
  REQUIRE(out.size == 2);
  CHECK(out.items[1].visible_s == Approx(50e-6 + 64 * 3e-6));  // 242 us
  Workload pre;
  pre.mode = Mode::prefill;
  lat.time_step_with(make_eval_context(m, mach), fam, w, out, 0, 4, pre.mode);
  REQUIRE(out.size == 2);
  CHECK(out.items[1].visible_s == Approx(1000e-6 + 4 * 100e-6));  // 1400 us
}

TEST_CASE("calibrated: a recurrent layer's state read is no KV page - the KV format does not time it",
          "[calibrated][layers]") {
  // The decode-attention curve (docs/physics.md §7.5) prices KV pages of attn.core*; a linear
  // layer's scan reads its state at the HBM efficiency whatever dtype.kv says.
  const Toy toy;
  plugins::ServingStackProfile none;
  none.name = "none";
  const plugins::CalibratedLatency lat(none);
  const auto memory_s = [&](DType kv, const char* name) {
    ModelSpec m = toy.model;
    m.dtype.kv = kv;
    const EvalContext ctx = make_eval_context(m, toy.machine);
    StepWork w;
    StageWork& s = w.push();
    s.name = name;
    s.count = 1;
    s.kernels = 1;
    s.hbm_bytes = 8e6;
    s.attention_kernel = true;
    s.attn_queries = 1.0f;
    StageList out;
    lat.time_step_with(ctx, toy.fam, w, out, 1, 1, Mode::decode);
    return out.items[0].memory_s;
  };
  CHECK(memory_s(DType::bf16, "linear.scan") == Approx(8e6 / (4e12 * 0.9)));
  CHECK(memory_s(DType::fp8, "linear.scan") == memory_s(DType::bf16, "linear.scan"));
  CHECK(memory_s(DType::fp8, "attn.indexer") == memory_s(DType::bf16, "attn.indexer"));
}
