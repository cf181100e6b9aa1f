// The physics of latency/example, per PE and per occurrence of each stage:
//   compute_s = flops / peak            (the GEMM peak, or the attention peak for attention kernels)
//   memory_s  = hbm_bytes / (hbm_bw * hbm_efficiency)
//   comm_s    = sum of tessera::collective_cost(c, machine, {1, alpha}) over the stage's collectives
//   visible_s = max(compute_s, memory_s) + comm_s + stage_overhead   (no overlap)
// The context-parallel exchange (attn.cp) runs its ring steps one after another: each step
// computes on the block it received, then sends the next message.
#include "example_latency.hpp"

#include <algorithm>

namespace example {

using namespace tessera;

void ExampleLatency::time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const {
  const StepWork& work = step.work;
  out.clear();
  const double overhead = ctx.machine ? ctx.machine->stage_overhead : 0.0;
  const double hbm_bw = ctx.hbm_bw * hbm_efficiency_;
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    Stage& s = out.push();
    s = Stage{};
    s.name = w.name;
    s.block = w.block;
    s.count = w.count;
    s.flops = w.flops;
    s.hbm_bytes = w.hbm_bytes;

    const double peak = w.attention_kernel ? ctx.attn_peak : ctx.gemm_peak;
    s.compute_s = peak > 0 ? w.flops / peak : 0.0;
    s.memory_s = hbm_bw > 0 ? w.hbm_bytes / hbm_bw : 0.0;
    const bool computes = w.flops > 0 || w.hbm_bytes > 0;

    if (w.has_cp) {
      const CpExchange& e = w.cp;
      const double msg_s = e.steps > 0 ? e.link.latency + alpha_ +
                                             (e.link.bandwidth > 0 ? e.msg_bytes / e.link.bandwidth : 0.0)
                                       : 0.0;
      const double step_s = roofline_seconds(e.step_flops, e.step_bytes, peak, hbm_bw);
      s.comm_bytes = e.steps * e.msg_bytes;
      s.comm_s = e.steps * msg_s;
      s.visible_s = e.steps * (step_s + msg_s) + (e.step_flops > 0 ? overhead : 0.0);
      s.bound = e.steps * step_s >= s.comm_s ? (s.compute_s >= s.memory_s ? Bound::compute : Bound::memory)
                                             : Bound::comm;
      continue;
    }

    for (int c = 0; c < w.comm_count; ++c) {
      const Collective& col = w.comms[static_cast<std::size_t>(c)];
      s.comm_bytes += collective_wire_bytes(col);
      s.comm_s += collective_cost(col, *ctx.machine, CommRates{1.0, alpha_}).seconds;
    }
    const double work_s = std::max(s.compute_s, s.memory_s);
    s.visible_s = work_s + s.comm_s + (computes ? overhead : 0.0);
    if (s.comm_s > work_s)
      s.bound = Bound::comm;
    else if (!computes)
      s.bound = Bound::none;
    else
      s.bound = s.compute_s >= s.memory_s ? Bound::compute : Bound::memory;
  }
}

}  // namespace example
