#include "sram_tier.hpp"

#include <algorithm>

namespace tessera::plugins {

double sram_fraction(const SramTier& tier, double streamed_bytes) {
  if (!(streamed_bytes > 0)) return 1;
  return std::min(1.0, tier.capacity / streamed_bytes);
}

double tiered_bandwidth(double f, double sram_bw, double hbm_bw) {
  if (f <= 0) return hbm_bw;
  if (f >= 1) return sram_bw;
  return 1 / (f / sram_bw + (1 - f) / hbm_bw);
}

const char* served_from(double f) {
  if (f >= 1) return kSramTierName;
  if (f > 0) return kBlendedTierName;
  return kHbmTier;
}

void SramTierLatency::time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const {
  const StepWork& work = step.work;
  const ParamSet& block = ctx.machine->efficiency;  // validated against kMachineParams, defaulted
  const SramTier tier{block.real("sram_capacity"), block.real("sram_bandwidth")};
  // The bytes one PE streams in the step (weights and KV cache read once each, per occurrence).
  double streamed = 0;
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    streamed += w.hbm_bytes * w.count;
  }
  const double f = sram_fraction(tier, streamed);
  const char* name = served_from(f);
  out.clear();
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    StageRates r = peak_rates(ctx, w);
    r.hbm_bw = tiered_bandwidth(f, tier.bandwidth, r.hbm_bw);
    Stage& s = out.push();
    time_stage(ctx, w, r, CpOverlap::serial, s);
    if (f > 0) {  // bytes served (partly) from SRAM: named, at the bandwidth they were timed at
      s.memory_tier = name;
      s.memory_tier_bw = r.hbm_bw;
    }
  }
}

}  // namespace tessera::plugins
