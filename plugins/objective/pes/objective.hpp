#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// PEs used, cp*tp*pp*dp; lower is better.
class PesObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "PE"; }
  double evaluate(const EvalContext&, const Workload&, const ParallelConfig& c,
                  const EvaluatedStep&) const override {
    return static_cast<double>(c.pes());
  }
};

}  // namespace tessera::plugins
