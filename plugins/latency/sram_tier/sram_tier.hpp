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

// The memory tier a stage names (Stage::memory_tier, docs/physics.md §7.3): "sram" when the
// step's bytes all fit (f = 1), "sram+hbm" when they are split (0 < f < 1: a fraction f from
// SRAM, the rest from HBM, at the blended bandwidth), "hbm" when no SRAM holds any (f = 0).
// One tier per stage cannot carry two byte counts, so a split step's bytes are reported as the
// blend's: its utilisation is bytes / (blended bandwidth · PEs · latency), HBM's bw_util omits them.
inline constexpr const char* kSramTierName = "sram";
inline constexpr const char* kBlendedTierName = "sram+hbm";
const char* served_from(double f);

class SramTierLatency final : public LatencyModel {
 public:
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override;
};

}  // namespace tessera::plugins
