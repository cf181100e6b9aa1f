#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// The reference model (docs/specification.md §3): every stage at dense peak and full HBM bandwidth,
// collectives
// alpha-beta, the context-parallel exchange overlapped with attention over the received block.
// With `tp_overlap: chunked`, the TP all-reduces pipelined with their producing GEMM
// (tessera/physics/tp_overlap.hpp); each chunk costs the machine's stage_overhead.
class OverlapLatency final : public LatencyModel {
 public:
  OverlapLatency() = default;
  explicit OverlapLatency(const TpOverlapPolicy& tp_overlap) : tp_overlap_(tp_overlap) {}
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override;
  const TpOverlapPolicy& tp_overlap() const { return tp_overlap_; }

 private:
  TpOverlapPolicy tp_overlap_;
};

}  // namespace tessera::plugins
