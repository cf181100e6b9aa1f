#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// sqrt(compute_util * bw_util) (docs/physics.md §9), unit-less; higher is better.
class EfficiencyObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::maximize; }
  const char* unit() const override { return ""; }
  double evaluate(const EvalContext&, const Workload&, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    const StepTotals& totals = step.totals;
    return totals.efficiency;
  }
};

}  // namespace tessera::plugins
