#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// sqrt(compute_util * bw_util) (docs/physics.md §9), unit-less; higher is better.
class EfficiencyObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::maximize; }
  const char* unit() const override { return ""; }
  double evaluate(const EvalContext&, const ParallelConfig&, const StepTotals& totals,
                  const MemoryUsage&) const override {
    return totals.efficiency;
  }
};

}  // namespace tessera::plugins
