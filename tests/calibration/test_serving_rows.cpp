// `validate-data`'s serving rows (analysis/accuracy/serving_rows.hpp): which rows go through the serving
// model, and the mapping of each metric onto its metrics, checked through serving/static (the
// fixed batch of `run`: TTFT = the prefill, E2E = TTFT + (OSL - 1) x TPOT).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include "analysis/accuracy/accuracy_study.hpp"
#include "analysis/accuracy/serving_rows.hpp"
#include "host/plugin_registry.hpp"
#include "registry_fixture.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_serving_rows {

using namespace tessera;
using tessera::test::registry;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;

DataRow ft_row(const std::string& metric, const std::string& unit) {
  DataRow r;
  r.id = metric;
  r.source = "S";
  r.software = "FasterTransformer";
  r.model = "GPT-3-175B";
  r.precision = "fp16";
  r.hardware = "A100 SXM 80GB";
  r.n_devices = "8";
  r.tp = "8";
  r.batch = "4";
  r.input_len = "512";
  r.output_len = "32";
  r.metric = metric;
  r.value = "1";
  r.unit = unit;
  return r;
}

struct Predictor {
  Aliases aliases = load_aliases(default_aliases_path(kRoot));
  test::RowPlugins plugins = test::row_plugins("static");
  const std::shared_ptr<const MemoryModel>& memory = plugins.memory;
  const std::shared_ptr<const LatencyModel>& latency = plugins.latency;
  const std::shared_ptr<const ServingModel>& serving = plugins.serving;
  // {step-level prediction, serving prediction} in the row's unit.
  std::pair<double, double> operator()(const DataRow& r) const {
    const RowPlan p = plan_row(r, aliases, kRoot);
    REQUIRE(p.mapped);
    REQUIRE(serving_row_reason(r, p).empty());
    const PreparedRow prep = prepare_row(r, p);
    const ParamSet eff = registry().machine_params("calibrated", prep.efficiency_raw, p.machine_file);
    return {predict_row(prep, latency, eff, memory),
            predict_serving_row(prep, latency, eff, memory, *serving)};
  }
};

}  // namespace

TEST_CASE("serving rows: concurrency ISL and OSL stated and a request-level metric",
          "[validate-data][serving]") {
  const Aliases a = load_aliases(default_aliases_path(kRoot));
  DataRow r = ft_row("e2e_latency", "ms");
  const RowPlan p = plan_row(r, a, kRoot);
  REQUIRE(p.mapped);
  CHECK(serving_row_reason(r, p).empty());
  // Each of the three must be stated in the row (a plan's defaults do not count).
  r.batch = "";
  CHECK(serving_row_reason(r, p) == "concurrency (batch) not stated");
  r = ft_row("e2e_latency", "ms");
  r.input_len = "";
  CHECK(serving_row_reason(r, p) == "ISL (input_len) not stated");
  r = ft_row("e2e_latency", "ms");
  r.output_len = "";
  CHECK(serving_row_reason(r, p) == "OSL (output_len) not stated");
  r.batch = "";
  CHECK(serving_row_reason(r, plan_row(r, a, kRoot)) == "not mapped");
  r = ft_row("op_latency:W1_proj", "us");
  const RowPlan op = plan_row(r, a, kRoot);
  if (op.mapped) CHECK(serving_row_reason(r, op) == "not a request-level quantity");
}

TEST_CASE("serving rows: through static - TTFT is the prefill and E2E = TTFT + (OSL - 1) TPOT",
          "[validate-data][serving]") {
  const Predictor predict;
  // TTFT: static's prefill of the whole prompt at batch B is the step-level prefill.
  const auto [ttft_step, ttft] = predict(ft_row("ttft", "ms"));
  CHECK(ttft == Approx(ttft_step).epsilon(1e-12));
  const auto [tpot_step, tpot] = predict(ft_row("tpot", "ms"));
  CHECK(tpot > 0);
  CHECK(tpot == Approx(tpot_step).epsilon(0.05));  // decode at ISL + 15.5 against ISL + 16
  const auto [e2e_step, e2e] = predict(ft_row("e2e_latency", "ms"));
  CHECK(e2e == Approx(ttft + 31 * tpot).epsilon(1e-12));
  CHECK(e2e == Approx(e2e_step).epsilon(0.01));  // the step model sums the growing context exactly
  // Throughputs: dp x B x OSL / E2E (tok/s), per GPU over n_devices, requests dp x B / E2E.
  const auto [tp_step, tps] = predict(ft_row("throughput_out", "tok/s"));
  CHECK(tps == Approx(4 * 32 / (e2e / 1e3)).epsilon(1e-12));
  const auto [pg_step, per_gpu] = predict(ft_row("throughput_out_per_gpu", "tok/s/GPU"));
  CHECK(per_gpu == Approx(tps / 8).epsilon(1e-12));
  const auto [rq_step, rps] = predict(ft_row("request_throughput", "req/s"));
  CHECK(rps == Approx(4 / (e2e / 1e3)).epsilon(1e-12));
}

}  // namespace test_serving_rows
