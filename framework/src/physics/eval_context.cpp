#include "tessera/physics/eval_context.hpp"

namespace tessera {

EvalContext make_eval_context(const ModelSpec& model, const MachineSpec& machine, const Workload& workload) {
  EvalContext ctx;
  ctx.model = &model;
  ctx.machine = &machine;
  ctx.workload = workload;
  ctx.act_bytes = dtype_bytes(model.dtype.activations);
  ctx.weight_bytes = dtype_bytes(model.dtype.weights);
  ctx.kv_bytes = dtype_bytes(model.dtype.kv);
  // Weight-only quantisation saves bytes, not FLOP time: the wider format sets the peak.
  ctx.gemm_peak = machine.peak_flops(wider_dtype(model.dtype.weights, model.dtype.activations));
  ctx.attn_peak = machine.peak_flops(wider_dtype(model.dtype.kv, model.dtype.activations));
  ctx.hbm_bw = machine.pe.hbm_bandwidth;
  if (model.has_mla) {
    ctx.kv_elems_per_token_head = static_cast<double>(model.mla.kv_lora_rank + model.mla.rope_dim);
    ctx.kv_heads_eff = 1;
  } else {
    ctx.kv_elems_per_token_head = 2.0 * static_cast<double>(model.head_dim);
    ctx.kv_heads_eff = model.kv_heads;
  }
  return ctx;
}

}  // namespace tessera
