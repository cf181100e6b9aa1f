// latency/calibrated: schema and shipped parameters, and properties against `overlap`.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <set>
#include <string>

#include "analysis/validation.hpp"
#include "calibrated.hpp"
#include "eval/grid_space.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario_loader.hpp"

using namespace tessera;

namespace {

PluginRegistry& registry() {
  static PluginRegistry r;
  static bool once = [] {
    r.discover();
    return true;
  }();
  (void)once;
  return r;
}

std::string fixture(const char* name) { return std::string(TESSERA_TEST_DIR) + "/fixtures/" + name; }

}  // namespace

TEST_CASE("calibrated: every framework choice has a profile and every profile a choice", "[calibrated]") {
  const LoadedPlugin* p = registry().find(PluginKind::latency, "calibrated");
  REQUIRE(p != nullptr);
  const PluginDescriptor& d = *p->descriptor;
  REQUIRE(d.param_count == 1);
  std::set<std::string> choices;
  for (std::uint32_t i = 0; i < d.params[0].choice_count; ++i) choices.insert(d.params[0].choices[i].value);
  std::set<std::string> profiles;
  for (const auto& prof : plugins::framework_profiles()) {
    profiles.insert(prof.name);
    CHECK(prof.launch_overhead >= 0);
    CHECK(prof.collective_overhead >= 0);
    CHECK(prof.decode_step_overhead >= 0);
    CHECK(prof.prefill_overhead >= 0);
    CHECK(prof.prefill_overhead < 1.0);  // seconds: overheads are micro- to milliseconds
  }
  CHECK(choices == profiles);
  CHECK(std::string(d.params[0].default_value) == "generic");
}

TEST_CASE("calibrated: shipped efficiency blocks validate - efficiencies within (0 to 1]", "[calibrated]") {
  for (const char* stem : {"dgx-a100-40gb", "dgx-a100-80gb", "dgx-h100", "dgx-h200", "cube-sip"}) {
    const std::string file = std::string(TESSERA_SOURCE_DIR) + "/machines/" + stem + ".yaml";
    validation::RowPlan plan;
    plan.machine_file = file;
    plan.measure = validation::Measure::gemm;
    validation::DataRow row;
    const validation::PreparedRow prep = validation::prepare_row(row, plan);
    if (std::string(stem) != "cube-sip") CHECK(prep.efficiency_raw.size() == 8);
    const ParamSet eff = registry().machine_params("calibrated", prep.efficiency_raw, file);
    const plugins::FamilyEfficiency f = plugins::family_from_params(eff);
    INFO(stem);
    for (double e : {f.gemm_efficiency, f.gemm_8bit_efficiency, f.hbm_efficiency, f.attention_efficiency,
                     f.collective_bw_efficiency}) {
      CHECK(e > 0);
      CHECK(e <= 1);
    }
    CHECK(f.gemm_m_half >= 0);
    CHECK(f.kernel_overhead >= 0);
    CHECK(f.kernel_overhead < 1e-3);
    CHECK(f.collective_latency >= 0);
    CHECK(f.collective_latency < 1e-3);
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
    const GridSpace space(sc.sweep, overlap.model(), overlap.machine(), overlap.context().workload);
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
  const EvalContext ctx = make_eval_context(m, mach, Workload{});
  plugins::FamilyEfficiency fam;
  fam.gemm_efficiency = 0.8;
  fam.gemm_m_half = 32;
  fam.hbm_efficiency = 0.9;
  fam.kernel_overhead = 5e-6;
  plugins::FrameworkProfile none;
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
  plugins::FrameworkProfile fast, slow;
  fast.name = "fast";
  fast.launch_overhead = 1e-6;
  slow.name = "slow";
  slow.launch_overhead = 200e-6;  // far slower than any kernel
  const plugins::CalibratedLatency lf(fast), ls(slow);
  ParallelConfig c;
  c.tp = 8;
  Layout lay;
  compute_layout(s.model(), s.machine(), s.context().workload, c, lay);
  StepShape sh;
  sh.mode = Mode::decode;
  sh.batch = sh.tokens = 4;
  sh.kv_cached = 8192;
  sh.layers = static_cast<double>(s.model().layers);
  sh.dense_layers = sh.layers;
  StepWork w;
  build_step_work(s.context(), c, lay, sh, w);
  StageList a, b;
  lf.time_step(s.context(), w, a);
  ls.time_step(s.context(), w, b);
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
  plugins::FrameworkProfile none;
  none.name = "none";
  const plugins::CalibratedLatency lat(none);
  auto time = [&](const ModelSpec& model, bool attention) {
    const EvalContext ctx = make_eval_context(model, mach, Workload{});
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
