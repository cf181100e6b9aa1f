#pragma once
// A shipped scenario turned into a serving one programmatically (mode serve, ISL, OSL, the
// serving plugin), and one configuration evaluated at one serving point.
#include <string>
#include <utility>
#include <vector>

#include "eval/serving_evaluator.hpp"
#include "search_fixture.hpp"

namespace tessera::test {

inline Scenario serving_scenario(const std::string& file, std::int64_t isl, std::int64_t osl,
                                 const PluginChoice& serving) {
  // The reference physics (overlap): the shipped real-machine scenarios name calibrated now.
  Scenario sc = load(file, {"plugins.latency=overlap"});
  sc.workload.mode = Mode::serve;
  sc.workload.input = isl;
  sc.workload.output = osl;
  sc.workload.batch = 1;
  sc.workload.chunk = 0;
  sc.plugins.serving = serving;
  return sc;
}

inline ServingMetrics serve_point(const Session& s, const ParallelConfig& c, std::int64_t batch,
                                  std::int64_t budget) {
  const ServingEvaluator ev(s, ServingSlo{});
  ServingEvaluation e;
  ev.evaluate(c, ServingPoint{batch, budget}, e);
  return e.metrics;
}

}  // namespace tessera::test
