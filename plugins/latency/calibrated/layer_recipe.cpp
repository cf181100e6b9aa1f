// Per-framework layer recipes of latency/calibrated: how many kernels each stage of a dense,
// MoE and MLA layer launches, and which are fused (docs/physics.md §7.6, calibrated.hpp). The
// work model's own counts (StageWork::kernels: 9 per dense layer) stay the default for stacks
// without a recipe (the 2023 stacks, whose rows the pooled profile was fitted with).
#include "calibrated.hpp"

namespace tessera::plugins {

// vLLM (>= 0.6; SGLang runs the same model code and kernels: sgl-kernel's fused_add_rmsnorm,
// rotary_embedding, silu_and_mul, the Triton fused_moe), per layer, in the order the model code
// calls them (vllm-project/vllm vllm/model_executor/models/llama.py LlamaDecoderLayer.forward,
// deepseek_v2.py DeepseekV2MLAAttention, vllm/model_executor/layers/fused_moe/fused_moe.py):
//   attn.qkv   3  fused_add_rms_norm (residual add + RMSNorm, one kernel), qkv_proj (QKV fused
//                 in one GEMM: QKVParallelLinear), rotary_embedding
//   attn.core  2  reshape_and_cache_flash (KV write), the attention kernel
//   attn.out   1  o_proj
//   ffn.up     3  fused_add_rms_norm, gate_up_proj (gate and up fused: MergedColumnParallelLinear),
//                 silu_and_mul (SiluAndMul: not fused into the GEMM)
//   ffn.down   1  down_proj
//   moe.router 3  fused_add_rms_norm, the gate GEMM, topk_softmax
//   moe.experts 5 moe_align_block_size (permute), fused_moe_kernel (w13), silu_and_mul,
//                 fused_moe_kernel (w2), moe_sum (unpermute + weighted sum)
//   moe.shared 3  gate_up_proj, silu_and_mul, down_proj
//   MLA attn.qkv 7  fused_add_rms_norm, fused_qkv_a_proj (q_a and kv_a in one GEMM),
//                 q_a_layernorm, kv_a_layernorm, q_b_proj, the W_UK bmm (absorbed query), rotary
//   MLA attn.core 3 concat_and_cache_mla, the MLA decode kernel and its split-KV combine
//                 (FlashMLA: flash_mla_with_kvcache)
//   MLA attn.out 2  the W_UV bmm, o_proj
constexpr LayerRecipe kVllm = {"vllm", 3, 2, 1, 3, 1, 3, 5, 3, 7, 3, 2};

// TensorRT-LLM (0.x TensorRT engines and 1.x PyTorch backend), NVIDIA/TensorRT-LLM: the GPT
// attention plugin / op fuses RoPE and the KV-cache write into its QKV preprocessing kernel
// (cpp/tensorrt_llm/kernels/unfusedAttentionKernels: invokeQKVPreprocessing), so attn.qkv is
// RMSNorm + the fused QKV GEMM (2) and attn.core the preprocessing + the MMHA/XQA/FMHA kernel
// (2); the gated MLP is one fused gate-up GEMM + the gated activation + down (3 + 1); MoE
// (cpp/tensorrt_llm/kernels/mixtureOfExperts/moe_kernels.cu): router GEMM + top-k softmax (with
// the norm: 3), expandInputRows (permute), two grouped GEMMs, the activation and
// finalizeMoeRouting (unpermute + sum): 5; MLA (tensorrt_llm/_torch/modules/attention.py MLA):
// the norm, fused_a GEMM, q_a/kv_a layernorms, q_b GEMM and the W_UK bmm (6: RoPE runs in the
// MLA preprocessing), the preprocessing + attention (2), the W_UV bmm + o_proj (2).
constexpr LayerRecipe kTensorrtLlm = {"tensorrt-llm", 2, 2, 1, 3, 1, 3, 5, 3, 6, 2, 2};

const LayerRecipe* vllm_layer_recipe() { return &kVllm; }
const LayerRecipe* tensorrt_llm_layer_recipe() { return &kTensorrtLlm; }

int recipe_kernels(const LayerRecipe* r, const StageWork& w, bool mla) {
  if (!r) return w.kernels;
  const std::string_view n(w.name);
  int k = 0;
  if (n == "attn.qkv")
    k = mla ? r->mla_qkv : r->qkv;
  else if (n == "attn.core" || n == "attn.core.sliding" || n == "attn.core.chunked" ||
           n == "attn.core.sparse")
    k = mla ? r->mla_core : r->core;
  else if (n == "attn.out")
    k = mla ? r->mla_out : r->out;
  else if (n == "ffn.up")
    k = r->up;
  else if (n == "ffn.down")
    k = r->down;
  else if (n == "moe.router")
    k = r->router;
  else if (n == "moe.experts")
    k = r->experts;
  else if (n == "moe.shared")
    k = r->shared;
  return k > 0 ? k : w.kernels;  // every other stage (lm_head, attn.cp, collectives): the work model's
}

}  // namespace tessera::plugins
