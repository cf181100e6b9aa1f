#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Capital cost of the configuration's PEs, USD; lower is better (docs/physics.md §9 "Price"):
// PEs × the machine's `price.pe`, or, without it, the parametric price per PE of the plugin's
// coefficients (base + per_tflops·peak + per_tbps·HBM bandwidth + per_gb·HBM capacity +
// per_gbps·first-level link bandwidth; tessera/price.hpp). Capital only: lifetime, power and
// electricity are cost_per_mtok's.
class CostObjective final : public Objective {
 public:
  explicit CostObjective(ParametricPeCost k) : k_(k) {}
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "USD"; }
  double evaluate(const EvalContext& ctx, const Workload&, const ParallelConfig& c,
                  const EvaluatedStep&) const override {
    return static_cast<double>(c.pes()) * capital_per_pe(k_, ctx);
  }

 private:
  ParametricPeCost k_;
};

}  // namespace tessera::plugins
