#pragma once
// The attention block of one step (docs/physics.md §3, §5): attn.qkv, the KV split's exchange
// inside the r-group, attn.core and attn.cp for each attention kind the layers have (full,
// sliding, chunked), attn.out and the TP all-reduce. Internal to the physics: build_step_work
// (step_work.cpp) appends it first.
#include "physics/stage_builders.hpp"
#include "tessera/physics/step_work.hpp"

namespace tessera::step_internal {

// `reduce_layers`: the layers whose attention output is all-reduced on its own — L, less the
// layers of a parallel block whose FFN reduction carries the attention's partial sums.
void attention_block(const EvalContext& ctx, const ParallelConfig& c, const Layout& lay, const StepShape& sh,
                     const Dims& x, double reduce_layers, StepWork& out);

}  // namespace tessera::step_internal
