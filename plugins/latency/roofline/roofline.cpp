#include "roofline.hpp"

namespace tessera::plugins {

void RooflineLatency::time_step(const EvalContext& ctx, const StepWork& work, StageList& out) const {
  out.clear();
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    time_stage(ctx, w, peak_rates(ctx, w), CpOverlap::serial, out.push());
  }
}

}  // namespace tessera::plugins
