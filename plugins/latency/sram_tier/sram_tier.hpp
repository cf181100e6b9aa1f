#pragma once
// latency/sram_tier: an on-chip SRAM tier before HBM (docs/physics.md §7.3). The bytes a PE
// streams in a step are served from SRAM up to the tier's capacity and from HBM beyond it; the
// rest is the roofline model's (peak compute, alpha-beta collectives, serial CP ring).
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// The tier, from the machine file's `plugins: {sram_tier: {...}}` block (SI).
struct SramTier {
  double capacity = 0;   // B per PE
  double bandwidth = 0;  // B/s per PE
};

// The fraction of a step's streamed bytes the SRAM serves: min(1, capacity / streamed), 1 for a
// step that streams nothing.
double sram_fraction(const SramTier& tier, double streamed_bytes);
// The bandwidth a stage sees when a fraction `f` of its bytes come from SRAM:
// 1 / (f / sram_bw + (1 - f) / hbm_bw).
double tiered_bandwidth(double f, double sram_bw, double hbm_bw);

class SramTierLatency final : public LatencyModel {
 public:
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override;
};

}  // namespace tessera::plugins
