#pragma once
// The layers a step's path holds (docs/physics.md §8): the whole model's, or those of the
// heaviest pipeline stage. Internal to the evaluator.
#include <algorithm>
#include <cmath>

#include "tessera/model.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/step_work.hpp"

namespace tessera {

// The heaviest pipeline stage: ceil(L/pp) layers, as many of them MoE layers as possible, then
// as many dense-FFN layers, the rest without an FFN.
inline void stage_layers(const EvalContext& ctx, int pp, StepShape& sh) {
  const ModelSpec& m = *ctx.model;
  const double layers = std::ceil(static_cast<double>(m.layers) / pp);
  // The stage with the most MoE layers sets the pipeline's pace.
  const double moe = m.has_moe ? std::min(layers, ctx.stage_ffns(LayerFfn::moe, pp)) : 0.0;
  const double dense = std::min(layers - moe, ctx.stage_ffns(LayerFfn::dense, pp));
  sh.layers = layers;
  sh.dense_layers = dense;
  sh.ffn_free_layers = layers - moe - dense;
}

// The whole model's layers.
inline void model_layers(const ModelSpec& m, StepShape& sh) {
  sh.layers = static_cast<double>(m.layers);
  sh.dense_layers = static_cast<double>(m.dense_ffn_layers());
  sh.ffn_free_layers = static_cast<double>(m.ffn_free_layers());
}

}  // namespace tessera
