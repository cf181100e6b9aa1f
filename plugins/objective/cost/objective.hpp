#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

struct CostCoefficients {
  double base = 2000;      // USD per PE
  double per_tflops = 8;   // USD per dense TFLOP/s of the GEMM format
  double per_tbps = 2500;  // USD per TB/s of HBM bandwidth
  double per_gb = 40;      // USD per GB of HBM capacity
  double per_gbps = 10;    // USD per GB/s of first-level link bandwidth
};

// Parametric hardware cost (docs/specification.md §5): PEs × (base + per_tflops·peak + per_tbps·HBM bandwidth
// + per_gb·HBM capacity + per_gbps·first-level link bandwidth), USD; lower is better.
class CostObjective final : public Objective {
 public:
  explicit CostObjective(CostCoefficients k) : k_(k) {}
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "USD"; }
  static double per_pe(const CostCoefficients& k, const EvalContext& ctx) {
    const MachineSpec& m = *ctx.machine;
    const double link = m.levels.empty() ? 0.0 : m.levels.front().link_bw;
    return k.base + k.per_tflops * ctx.gemm_peak / 1e12 + k.per_tbps * m.pe.hbm_bandwidth / 1e12 +
           k.per_gb * m.pe.hbm_capacity / 1e9 + k.per_gbps * link / 1e9;
  }
  double evaluate(const EvalContext& ctx, const ParallelConfig& c, const EvaluatedStep&) const override {
    return static_cast<double>(c.pes()) * per_pe(k_, ctx);
  }

 private:
  CostCoefficients k_;
};

}  // namespace tessera::plugins
