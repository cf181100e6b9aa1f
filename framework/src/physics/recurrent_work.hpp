#pragma once
// The recurrent mixers of one step (docs/physics.md §3 "Recurrent layers"): Gated DeltaNet
// (linear) and Mamba-2 (mamba) layers — their input projection, the convolution and scan over a
// constant-size state, the state's hand-over between CP ranks in prefill, and the output
// projection. Internal to the physics: attention_block (attention_work.cpp) appends them.
#include "physics/stage_builders.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"

namespace tessera::step_internal {

// The `count` layers of recurrent kind `kind` (AttentionKind::linear or ::mamba) on the path.
void recurrent_block(const EvalContext& ctx, const Layout& lay, const StepShape& sh, const Dims& x,
                     AttentionKind kind, double count, StepWork& out);

}  // namespace tessera::step_internal
