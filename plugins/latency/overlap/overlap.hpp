#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// The reference model (SPEC §3): every stage at dense peak and full HBM bandwidth, collectives
// alpha-beta, the context-parallel exchange overlapped with attention over the received block.
class OverlapLatency final : public LatencyModel {
 public:
  void time_step(const EvalContext& ctx, const StepWork& work, StageList& out) const override;
};

}  // namespace tessera::plugins
