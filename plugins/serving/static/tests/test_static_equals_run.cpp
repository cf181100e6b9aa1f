// serving/static = `tessera run`: for every shipped decode (prefill)
// scenario, mode serve with static, ISL = context and OSL = 1 (token budget B x chunk for a
// chunked prefill, 0 otherwise) gives TPOT (TTFT) == run's latency_s exactly, for every latency
// model the scenario names, over its valid configurations (every k-th of a large grid).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>

#include "eval/grid_space.hpp"
#include "eval/serving_evaluator.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

constexpr std::uint64_t kMaxConfigs = 300;  // per scenario and latency model

struct Checked {
  std::uint64_t configs = 0, mismatches = 0;
};

Checked check_scenario(const Scenario& sc, std::size_t latency_index) {
  Checked out;
  const Session run(sc, registry(), latency_index);
  Scenario serve = sc;
  serve.workload.mode = Mode::serve;
  serve.workload.input = sc.workload.context;
  serve.workload.output = 1;
  serve.plugins.serving = choice("static");
  const Session srv(serve, registry(), latency_index);
  const ServingEvaluator ev(srv, ServingSlo{});
  const std::int64_t B = sc.workload.batch;
  const bool prefill = sc.workload.mode == Mode::prefill;
  const ServingPoint point{B, prefill && sc.workload.chunk > 0 ? B * sc.workload.chunk : 0};

  const GridSpace grid(run.scenario().sweep, run.model(), run.machine(), run.workload());
  const std::uint64_t n = grid.valid_count();
  const std::uint64_t stride = std::max<std::uint64_t>(1, (n + kMaxConfigs - 1) / kMaxConfigs);
  Evaluation e;
  ServingEvaluation s;
  for (std::uint64_t i = 0; i < n; i += stride) {
    const ParallelConfig c = grid.valid_config(i);
    run.evaluator().evaluate(c, e);
    ev.evaluate(c, point, s);
    if (!e.valid) {
      CHECK(s.verdict == ServingVerdict::invalid);
      continue;
    }
    ++out.configs;
    const double got = prefill ? s.metrics.ttft_s : s.metrics.tpot_s;
    if (got != e.totals.latency_s) {
      ++out.mismatches;
      CHECK(got == e.totals.latency_s);  // reported with the values
    }
  }
  return out;
}

}  // namespace

TEST_CASE("static equals run bit for bit for every shipped decode and prefill scenario",
          "[serving][static]") {
  std::uint64_t scenarios = 0, configs = 0;
  for (const std::string& file : scenario_files()) {
    const Scenario sc = load(file);
    if (sc.workload.mode != Mode::decode && sc.workload.mode != Mode::prefill) continue;
    for (std::size_t l = 0; l < sc.plugins.latency.size(); ++l) {
      INFO(file << " latency " << sc.plugins.latency[l].name);
      const Checked c = check_scenario(sc, l);
      CHECK(c.configs > 0);
      CHECK(c.mismatches == 0);
      configs += c.configs;
    }
    ++scenarios;
  }
  CHECK(scenarios >= 15);  // the 15 shipped decode and prefill scenarios at least
  CHECK(configs > 1000);
}
