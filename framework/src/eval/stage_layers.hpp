#pragma once
// The layers a step's path holds (docs/physics.md §8): the whole model's, or those of the
// heaviest pipeline stage. Internal to the evaluator.
#include <algorithm>
#include <array>
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
  const std::array<double, kLayerFfnCount> ffns = ctx.stage_ffns(pp);
  const double moe = m.has_moe ? std::min(layers, ffns[static_cast<std::size_t>(LayerFfn::moe)]) : 0.0;
  const double dense = std::min(layers - moe, ffns[static_cast<std::size_t>(LayerFfn::dense)]);
  sh.layers = layers;
  sh.dense_layers = dense;
  sh.ffn_free_layers = layers - moe - dense;
}

// The whole model's layers (EvalContext::ffn_layers, counted once).
inline void model_layers(const EvalContext& ctx, StepShape& sh) {
  sh.layers = static_cast<double>(ctx.model->layers);
  sh.dense_layers = ctx.ffn_layers[static_cast<std::size_t>(LayerFfn::dense)];
  sh.ffn_free_layers = ctx.ffn_layers[static_cast<std::size_t>(LayerFfn::none)];
}

}  // namespace tessera
