#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Nothing overlapped: every stage max(compute, memory) + stage overhead, collectives
// alpha-beta, and each context-parallel ring step pays its attention and its message in turn.
class RooflineLatency final : public LatencyModel {
 public:
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override;
};

}  // namespace tessera::plugins
