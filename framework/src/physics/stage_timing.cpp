// Stage time (docs/physics.md §7): compute = flops/peak, memory = bytes/bw, visible = max(compute,
// memory) + overhead for compute stages; collectives per collectives.cpp (§3.3); attn.cp per
// variant, its ring steps point-to-point messages of the CP group's level.
#include "tessera/physics/stage_timing.hpp"

#include <algorithm>

namespace tessera {

DType stage_math_dtype(const EvalContext& ctx, const StageWork& work) {
  if (work.attention_kernel) return ctx.attn_dtype;
  return ctx.part_gemm_dtype[static_cast<std::size_t>(work.part)];
}

double stage_peak(const EvalContext& ctx, const StageWork& work) {
  return work.attention_kernel ? ctx.attn_peak : ctx.gemm_peak_of(work.part);
}

StageRates peak_rates(const EvalContext& ctx, const StageWork& work) {
  StageRates r;
  r.flop_rate = stage_peak(ctx, work);
  r.hbm_bw = ctx.hbm_bw;
  r.overhead = ctx.machine->stage_overhead;
  return r;
}

void time_stage(const EvalContext& ctx, const StageWork& w, const StageRates& rates, CpOverlap overlap,
                Stage& out) {
  out.name = w.name;
  out.block = w.block;
  out.count = w.count;
  out.flops = w.flops;
  out.hbm_bytes = w.hbm_bytes;
  out.comm_bytes = 0;
  out.compute_s = rates.flop_rate > 0 ? w.flops / rates.flop_rate : 0;
  out.memory_s = rates.hbm_bw > 0 ? w.hbm_bytes / rates.hbm_bw : 0;
  out.comm_s = 0;
  out.source = nullptr;  // the list's slots are reused: a model that mixes sources sets its own

  out.has_comm_algorithm = false;
  out.comm_hierarchical = false;
  out.comm_algorithm = CollAlgorithm::ring;
  out.comm_protocol = Protocol::none;
  out.comm_bw_efficiency = rates.comm_bw_efficiency;
  out.comm_extra_latency = rates.comm_extra_latency;
  out.call_overhead_s = 0;
  const CommRates comm{rates.comm_bw_efficiency, rates.comm_extra_latency};

  if (w.has_cp) {
    const CpExchange& e = w.cp;
    const double msg_t = e.steps > 0 ? p2p_message_time(e.link, *ctx.machine, e.msg_bytes, comm) : 0;
    const double t_i = roofline_seconds(e.step_flops, e.step_bytes, rates.flop_rate, rates.hbm_bw);
    out.comm_bytes = e.steps * e.msg_bytes;
    out.comm_s = e.steps * msg_t;
    const bool hide = overlap == CpOverlap::overlapped && e.overlappable;
    out.visible_s = e.steps * (hide ? std::max(t_i, msg_t) : t_i + msg_t);
    out.bound = (e.steps * t_i >= out.comm_s && hide)
                    ? (out.compute_s >= out.memory_s ? Bound::compute : Bound::memory)
                    : Bound::comm;
    if (e.step_flops > 0) out.visible_s += rates.overhead;
    return;
  }
  double slowest = -1;
  for (int i = 0; i < w.comm_count; ++i) {
    const Collective& c = w.comms[static_cast<std::size_t>(i)];
    out.comm_bytes += collective_wire_bytes(c);
    const CollectiveChoice choice = collective_cost(c, *ctx.machine, comm);
    out.comm_s += choice.seconds;
    if (choice.any && choice.seconds > slowest) {
      slowest = choice.seconds;
      out.has_comm_algorithm = true;
      out.comm_hierarchical = choice.shape == CommShape::hierarchical;
      out.comm_algorithm = choice.algorithm;
      out.comm_protocol = choice.protocol;
    }
  }
  const bool computes = w.flops > 0 || w.hbm_bytes > 0;
  const double work_t = std::max(out.compute_s, out.memory_s);
  out.visible_s = work_t + out.comm_s + (computes ? rates.overhead : 0);
  if (out.comm_s > work_t)
    out.bound = Bound::comm;
  else if (!computes)
    out.bound = Bound::none;
  else if (rates.overhead > work_t)
    out.bound = Bound::overhead;
  else
    out.bound = out.compute_s >= out.memory_s ? Bound::compute : Bound::memory;
}

}  // namespace tessera
