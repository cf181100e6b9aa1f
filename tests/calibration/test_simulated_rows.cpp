// `validate-data --simulate` (analysis/accuracy/simulated_rows.hpp): which rows go through the request
// simulator, and the scoring of three of NVIDIA NIM's published Llama-3.3-70B FP8 TP2 rows
// (data/measurements-serving.csv 900, 906, 910: 5000/500 tokens at concurrency 1, 25 and 50)
// with their exact simulated values and the JSON fields the command writes.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <algorithm>

#include "analysis/accuracy/accuracy_study.hpp"
#include "analysis/accuracy/simulated_rows.hpp"
#include "host/plugin_registry.hpp"
#include "registry_fixture.hpp"
#include "studies/documents/accuracy_document.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_simulated_rows {

using namespace tessera;
using tessera::test::registry;
using namespace tessera::accuracy;

namespace {

const std::string kRoot = TESSERA_SOURCE_DIR;

std::vector<DataRow> nim_rows(const std::vector<std::string>& ids) {
  std::vector<DataRow> out;
  for (const DataRow& r : read_measurements(kRoot + "/data/measurements-serving.csv"))
    if (std::find(ids.begin(), ids.end(), r.id) != ids.end()) out.push_back(r);
  REQUIRE(out.size() == ids.size());
  return out;
}

}  // namespace

TEST_CASE("simulated rows: a stated concurrency of clients and fixed lengths", "[validate-data][simulate]") {
  const Aliases a = load_aliases(default_aliases_path(kRoot));
  DataRow r = nim_rows({"906"}).at(0);
  const RowPlan p = plan_row(r, a, kRoot);
  REQUIRE(p.mapped);
  CHECK(simulated_row_reason(r, p).empty());
  CHECK(states_load(r));
  // The concurrency the notes and locator state must be the row's batch.
  DataRow other = r;
  other.batch = "24";
  const RowPlan po = plan_row(other, a, kRoot);
  REQUIRE(po.mapped);
  CHECK(simulated_row_reason(other, po) == "the concurrency the notes state (25) is not the row's batch");
  // A static batch (no concurrency of clients stated) is not a stream of requests.
  DataRow fixed = r;
  fixed.notes = "static batch at the listed batch";
  fixed.source_locator = "table 1";
  CHECK(simulated_row_reason(fixed, plan_row(fixed, a, kRoot)) == "a static batch, not a stream of requests");
  fixed.notes = "batch of 25 prefilled together";
  CHECK(simulated_row_reason(fixed, plan_row(fixed, a, kRoot)) ==
        "no concurrency of clients stated in the notes or locator (a static or offline batch)");
  CHECK_FALSE(states_load(fixed));
  // An MLPerf Server row: a rate, lengths varying per sample.
  DataRow server;
  server.notes = "Server scenario (Poisson arrivals, target_qps 8.6); variable input/output lengths.";
  CHECK(states_load(server));
  CHECK(rate_row_reason(server) ==
        "measured under a request rate, but the prompt and output lengths vary per sample and the row "
        "states no length distribution (ISL/OSL blank)");
  CHECK(simulated_requests(25) == 550);
  CHECK(simulated_warmup(25) == 50);
  CHECK(simulated_requests(250) == 2500);
}

TEST_CASE("simulated rows: NIM Llama-3.3-70B FP8 TP2 rows scored with their exact values and JSON",
          "[validate-data][simulate]") {
  ValidateOptions o;
  o.latency = {"calibrated"};
  o.data_root = kRoot;
  o.simulate = true;
  const auto reports = validate_data(nim_rows({"900", "906", "910"}), registry(), o);
  REQUIRE(reports.size() == 1);
  const ModelReport& rep = reports[0];
  REQUIRE(rep.rows.size() == 3);
  for (const RowResult& r : rep.rows) REQUIRE(r.simulated);
  // Concurrency 1: no queue, TTFT is the prefill of 5000 tokens (measured 406.77 ms).
  const RowResult& c1 = rep.rows[0];
  CHECK(c1.id == "900");
  CHECK(c1.simulation.statistic == "mean");
  CHECK_FALSE(c1.simulation.statistic_stated);  // "Mean or median is not stated"
  CHECK(c1.simulation.clients == 1);
  CHECK(c1.simulation.requests == 502);
  CHECK(c1.simulation.warmup == 2);
  CHECK(c1.simulation.predicted == Approx(404.51093358208357).epsilon(1e-9));
  CHECK(c1.simulated_ape == Approx(std::abs(404.51093358208357 - 406.77) / 406.77).epsilon(1e-6));
  // Concurrency 25: 25 prompts share the engine, TTFT grows with the queue (measured 688.69 ms;
  // the steady-state serving model stays at ~406 ms).
  const RowResult& c25 = rep.rows[1];
  CHECK(c25.id == "906");
  CHECK(c25.simulation.clients == 25);
  CHECK(c25.simulation.requests == 550);
  CHECK(c25.simulation.predicted == Approx(630.5705434084158).epsilon(1e-9));
  CHECK(c25.simulation.p50 == Approx(564.9221549738854).epsilon(1e-9));
  // Concurrency 50, ITL (measured 59.73 ms): the mean over every measured gap between tokens.
  const RowResult& c50 = rep.rows[2];
  CHECK(c50.id == "910");
  CHECK(c50.metric == "itl");
  CHECK(c50.simulation.predicted == Approx(61.39466627859327).epsilon(1e-9));
  CHECK(c50.simulation.preemptions == 0);

  CHECK(rep.simulated_overall.n == 3);
  REQUIRE(rep.simulated_by_metric.size() == 2);
  CHECK(rep.simulated_by_metric[0].first == "ttft mean");
  CHECK(rep.simulated_by_metric[0].second.n == 2);
  CHECK(rep.simulated_by_metric[1].first == "itl mean");
  CHECK(rep.simulated_not_run.empty());

  const nlohmann::json j = reports_document(reports);
  REQUIRE(j.contains("simulated"));
  CHECK(j["simulated"]["token_budget"] == kSimulatedTokenBudget);
  CHECK(j["simulated"]["overall"]["n"] == 3);
  CHECK(j["simulated"]["by_metric"].contains("ttft mean"));
  CHECK(j["simulated"]["not_run"].is_array());
  CHECK(j["simulated"].contains("closer_than_serving"));
  const nlohmann::json& row = j["rows"][1]["simulated"];
  for (const char* key : {"statistic", "statistic_stated", "predicted", "ape", "p50", "clients", "requests",
                          "warmup", "kv_blocks", "block_tokens", "preemptions"})
    CHECK(row.contains(key));
  CHECK(row["predicted"].get<double>() == Approx(630.5705434084158).epsilon(1e-9));
  CHECK(row["statistic"] == "mean");

  // Without --simulate the JSON has no `simulated` block.
  o.simulate = false;
  const auto plain = validate_data(nim_rows({"900"}), registry(), o);
  CHECK_FALSE(reports_document(plain).contains("simulated"));
  CHECK_FALSE(plain[0].rows[0].simulated);
}

}  // namespace test_simulated_rows
