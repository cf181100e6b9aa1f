#include "tessera/physics/eval_context.hpp"

#include <algorithm>

#include "physics/model_weights.hpp"

namespace tessera {

const char* moe_a2a_name(MoeA2a k) {
  switch (k) {
    case MoeA2a::deepep_normal:
      return "deepep_normal";
    case MoeA2a::deepep_low_latency:
      return "deepep_low_latency";
    case MoeA2a::gather_scatter:
      return "gather_scatter";
    case MoeA2a::all_reduce_gather:
      return "all_reduce_gather";
  }
  return "?";
}

EvalContext make_eval_context(const ModelSpec& model, const MachineSpec& machine) {
  EvalContext ctx;
  ctx.model = &model;
  ctx.machine = &machine;
  const DTypes& dt = model.dtype;
  ctx.act_bytes = dtype_bytes(dt.activations);
  ctx.weight_bytes = dtype_bytes(dt.weights);
  ctx.kv_bytes = dtype_bytes(dt.kv);
  ctx.dispatch_bytes = dtype_bytes(dt.dispatch_payload());
  ctx.state_bytes = dtype_bytes(dt.state.value_or(dt.activations));
  // Weight-only quantisation saves bytes, not FLOP time: the wider format sets the peak.
  for (int i = 0; i < kWeightPartCount; ++i) {
    const auto p = static_cast<WeightPart>(i);
    ctx.part_weight_bytes[static_cast<std::size_t>(i)] = dtype_bytes(dt.weights_of(p));
    ctx.part_gemm_dtype[static_cast<std::size_t>(i)] = dt.gemm(p);
    ctx.part_gemm_peak[static_cast<std::size_t>(i)] = machine.peak_flops(dt.gemm(p));
  }
  ctx.gemm_peak = ctx.part_gemm_peak[static_cast<std::size_t>(WeightPart::other)];
  // The parts this model has; with one format for all of them util_peak = gemm_peak.
  ctx.util_peak = std::max(ctx.gemm_peak, std::max(ctx.gemm_peak_of(WeightPart::attention),
                                                   ctx.gemm_peak_of(WeightPart::lm_head)));
  if (model.dense_ffn_layers() > 0)
    ctx.util_peak = std::max(ctx.util_peak, ctx.gemm_peak_of(WeightPart::ffn));
  if (model.has_moe) {
    ctx.util_peak = std::max(ctx.util_peak, ctx.gemm_peak_of(WeightPart::experts));
    if (model.moe.shared_experts > 0)
      ctx.util_peak = std::max(ctx.util_peak, ctx.gemm_peak_of(WeightPart::shared_experts));
  }
  ctx.attn_dtype = dt.attention_kernel();
  ctx.attn_peak = machine.peak_flops(ctx.attn_dtype);
  ctx.hbm_bw = machine.pe.hbm_bandwidth;
  if (model.has_mla) {
    ctx.kv_elems_per_token_head = static_cast<double>(model.mla.kv_lora_rank + model.mla.rope_dim);
    ctx.kv_heads_eff = 1;
  } else {
    ctx.kv_elems_per_token_head = 2.0 * static_cast<double>(model.head_dim);
    ctx.kv_heads_eff = model.kv_heads;
  }
  ctx.mixer_layers = model.path_mixers(static_cast<double>(model.layers), 1);
  ctx.ffn_layers = model.stage_ffns(1);
  ctx.partial_layers = model.has_partial_layers();
  if (ctx.partial_layers) {
    for (int k = 0; k < kAttentionKindCount; ++k)
      ctx.mixer_weight[static_cast<std::size_t>(k)] = mixer_params(model, static_cast<AttentionKind>(k));
    ctx.ffn_weight[static_cast<std::size_t>(LayerFfn::dense)] =
        ffn_params(model, static_cast<double>(model.ffn));
    if (model.has_moe)
      ctx.ffn_weight[static_cast<std::size_t>(LayerFfn::moe)] =
          static_cast<double>(model.moe.experts + model.moe.shared_experts) * expert_params(model) +
          static_cast<double>(model.hidden) * static_cast<double>(model.moe.experts);
  }
  return ctx;
}

}  // namespace tessera
