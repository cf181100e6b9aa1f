#include "roofline.hpp"

namespace tessera::plugins {

void RooflineLatency::time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const {
  const StepWork& work = step.work;
  out.clear();
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    time_stage(ctx, w, peak_rates(ctx, w), CpOverlap::serial, out.push());
  }
}

}  // namespace tessera::plugins
