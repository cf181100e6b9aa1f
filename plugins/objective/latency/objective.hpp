#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Step latency (decode) or time to first token (prefill), seconds; lower is better.
class LatencyObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "s"; }
  double evaluate(const EvalContext&, const Workload&, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    const StepTotals& totals = step.totals;
    return totals.latency_s;
  }
};

}  // namespace tessera::plugins
