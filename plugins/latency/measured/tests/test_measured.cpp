// latency/measured through the registry, on the shipped DGX-H200 tables (data/kernel-tables):
// grid hits, a log-linear point between two grid values, a shape outside the grid and a stage
// with no table (both calibrated's time, and marked), and the machine block it reads.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <cmath>
#include <map>
#include <memory>
#include <string>

#include "analysis/accuracy/row_prediction.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "report/study_text/explain_report.hpp"
#include "scenario/scenario_loader.hpp"
#include "search_fixture.hpp"
#include "tessera/sdk.hpp"

using namespace tessera;
using tessera::test::registry;

namespace {

const std::string kH200 = std::string(TESSERA_SOURCE_DIR) + "/machines/dgx-h200.yaml";

// One model per name for the whole test run: a stage's source points into its model, which must
// outlive the stages (Stage::source).
const LatencyModel& model(const std::string& name) {
  static std::map<std::string, std::shared_ptr<const LatencyModel>> models;
  auto& m = models[name];
  if (m) return *m;
  PluginChoice c;
  c.name = name;
  RawParam fw;
  fw.key = "framework";
  fw.text = "none";  // no launch, collective-call or step cost: the stage's own time only
  c.params.push_back(fw);
  m = registry().create_latency(c);
  return *m;
}

// One stage timed alone on DGX-H200 with `latency` (its machine block from the machine file).
struct Timed {
  Stage stage;
  double step_s = 0;  // every stage of the step, the appended step.overhead included
};

Timed time_one(const char* latency, const StageWork& w, const StepShape& shape, std::int64_t heads = 1,
               std::int64_t kv_heads = 1) {
  accuracy::RowPlan plan;
  plan.machine_file = kH200;
  plan.measure = accuracy::Measure::gemm;
  accuracy::DataRow row;
  accuracy::PreparedRow prep = accuracy::prepare_row(row, plan);
  prep.model.heads = heads;
  prep.model.kv_heads = kv_heads;
  prep.model.head_dim = 128;
  MachineSpec machine = prep.machine;
  machine.efficiency = registry().machine_params(latency, prep.efficiency_raw, kH200);
  Workload wl;
  wl.mode = shape.mode;
  wl.batch = shape.batch;
  wl.context = static_cast<std::int64_t>(shape.kv_cached);
  const EvalContext ctx = make_eval_context(prep.model, machine);
  StepWork work;
  work.push() = w;
  ParallelConfig config;
  Layout layout;
  const StepCall call{.work = work,
                      .config = config,
                      .layout = layout,
                      .shape = shape,
                      .workload = wl,
                      .kind = StepKind::single_stage};
  StageList out;
  model(latency).time_step(ctx, call, out);
  Timed t;
  t.stage = out.items[0];
  for (const Stage& s : out) t.step_s += s.count * s.visible_s;
  return t;
}

StageWork gemm(double m, double n, double k) {
  StageWork s;
  s.name = "gemm";
  s.block = StageBlock::ffn;
  s.count = 1;
  s.kernels = 1;
  s.flops = s.accounted_flops = 2 * m * n * k;
  s.hbm_bytes = s.accounted_hbm_bytes = (m * k + k * n + m * n) * 2;
  s.gemm = {m, n, k};
  return s;
}

StepShape decode_shape(std::int64_t batch, double context) {
  StepShape sh;
  sh.mode = Mode::decode;
  sh.batch = batch;
  sh.tokens = batch;
  sh.kv_cached = context;
  return sh;
}

}  // namespace

TEST_CASE("measured: a GEMM on a grid point takes the table's entry", "[measured]") {
  // dgx-h200-gemm-bf16: m = 1, nk = 1280 * 8192 = 10485760 is row 1052, 13.056 us (stage_overhead 0).
  const Timed t = time_one("measured", gemm(1, 1280, 8192), decode_shape(1, 1));
  CHECK(t.stage.visible_s == Approx(13.056e-6).epsilon(1e-9));
  CHECK(std::string(t.stage.source) == "table dgx-h200-gemm-bf16");
  // The same N*K in another aspect (N = 8192, K = 1280) reads the same entry: N and K enter as N*K.
  CHECK(time_one("measured", gemm(1, 8192, 1280), decode_shape(1, 1)).stage.visible_s ==
        Approx(13.056e-6).epsilon(1e-9));
}

TEST_CASE("measured: a GEMM between two grid values of M interpolates log-linearly", "[measured]") {
  // M = 4 lies halfway between 1 and 16 in log space; rows 1052 (M = 1, 13.056 us) and 1054
  // (M = 16, 13.792 us): sqrt(13.056 * 13.792) = 13.4190 us.
  const Timed t = time_one("measured", gemm(4, 1280, 8192), decode_shape(4, 1));
  CHECK(t.stage.visible_s == Approx(13.41895e-6).epsilon(1e-5));
  CHECK(std::string(t.stage.source) == "table dgx-h200-gemm-bf16");
}

TEST_CASE("measured: a GEMM outside the grid is calibrated's and marked with the axis and range",
          "[measured]") {
  const StageWork big = gemm(16384, 1280, 8192);  // M above the table's 4096
  const Timed m = time_one("measured", big, decode_shape(1, 1));
  const Timed c = time_one("calibrated", big, decode_shape(1, 1));
  CHECK(m.stage.visible_s == c.stage.visible_s);
  CHECK(std::string(m.stage.source) == "fallback: calibrated (m outside 1..4096 in dgx-h200-gemm-bf16)");
  CHECK(c.stage.source == nullptr);
}

TEST_CASE("measured: decode attention reads its table while prefill attention has none and falls back",
          "[measured]") {
  StageWork a;
  a.name = "attn.core";
  a.block = StageBlock::attention;
  a.count = 1;
  a.kernels = 2;
  a.attention_kernel = true;
  a.flops = 4.0 * 128 * 64 * 8192;
  a.hbm_bytes = 2.0 * 8192 * 8 * 128 * 2;
  // B = 1, KV 4096 and 32768 (rows 1099: 15.648 us, 1104: 41.024 us); 8192 is a third of the way
  // in log space: 15.648^(2/3) * 41.024^(1/3) = 21.5767 us; plus one more kernel at calibrated's
  // kernel_overhead (dgx-h200: 7.058 us).
  const Timed d = time_one("measured", a, decode_shape(1, 8192), 64, 8);
  CHECK(std::string(d.stage.source) == "table dgx-h200-attention-decode-bf16");
  CHECK(d.stage.visible_s == Approx(21.5767e-6 + 7.058e-6).epsilon(1e-4));
  // 32 query heads: outside the table's single value 64.
  CHECK(std::string(time_one("measured", a, decode_shape(1, 8192), 32, 8).stage.source) ==
        "fallback: calibrated (q_heads outside 64..64 in dgx-h200-attention-decode-bf16)");
  StepShape pre;
  pre.mode = Mode::prefill;
  pre.batch = 1;
  pre.tokens = 2048;
  pre.chunk = 2048;
  pre.kv_cached = 0;
  const Timed m = time_one("measured", a, pre, 64, 8);
  const Timed c = time_one("calibrated", a, pre, 64, 8);
  CHECK(std::string(m.stage.source) ==
        "fallback: calibrated (no table for this operator, format and machine)");
  CHECK(m.stage.visible_s == c.stage.visible_s);
}

TEST_CASE("measured: reads calibrated's efficiency block and refuses an unknown framework", "[measured]") {
  // The machine file's `efficiency:` block validates against measured's machine schema (calibrated's).
  accuracy::RowPlan plan;
  plan.machine_file = kH200;
  plan.measure = accuracy::Measure::gemm;
  accuracy::DataRow row;
  const accuracy::PreparedRow prep = accuracy::prepare_row(row, plan);
  const ParamSet eff = registry().machine_params("measured", prep.efficiency_raw, kH200);
  CHECK(eff.real("gemm_efficiency") == Approx(0.7471));
  CHECK(eff.text("family") == "H100/H200");
  PluginChoice c;
  c.name = "measured";
  RawParam fw;
  fw.key = "framework";
  fw.text = "no-such-stack";
  c.params.push_back(fw);
  // The name is checked by the model it falls back on, which the host creates from it.
  CHECK_THROWS_WITH(registry().create_latency(c),
                    Catch::Contains("latency/measured falls back on latency/calibrated") &&
                        Catch::Contains("'no-such-stack'"));
}
