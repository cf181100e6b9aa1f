#include "overlap.hpp"

namespace tessera::plugins {

void OverlapLatency::time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const {
  const StepWork& work = step.work;
  out.clear();
  TpOverlapPolicy tp = tp_overlap_;
  tp.chunk_cost_s = ctx.machine->stage_overhead;  // the reference model's cost per kernel
  StageRates prev;
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    const StageRates r = peak_rates(ctx, w);
    Stage& s = out.push();
    time_stage(ctx, w, r, CpOverlap::overlapped, s);
    if (i > 0)
      overlap_tp_allreduce(ctx, tp, work.stages[static_cast<std::size_t>(i - 1)],
                           out.items[static_cast<std::size_t>(i - 1)], prev, w, r, s);
    prev = r;
  }
}

}  // namespace tessera::plugins
