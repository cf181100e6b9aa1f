#pragma once
// Number formats and which tensors use which (docs/physics.md §1 "Number formats").
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

// Number formats of weights, KV cache, activations and attention math. New formats go at
// the end (the values index MachineSpec's peak table). Block-scaled formats (OCP MX v1.0,
// NVIDIA NVFP4) count their scale bytes in dtype_bytes.
enum class DType : std::uint8_t {
  fp32,
  bf16,
  fp16,
  fp8,
  int8,
  int4,
  nvfp4,  // E2M1 + one E4M3 scale per 16 elements: 0.5 + 1/16 = 0.5625 B
  mxfp4,  // E2M1 + one E8M0 scale per 32 elements: 0.5 + 1/32 = 0.53125 B
  mxfp8,  // E4M3 + one E8M0 scale per 32 elements: 1 + 1/32 = 1.03125 B
};
inline constexpr int kDTypeCount = 9;

TESSERA_API double dtype_bytes(DType t);  // storage per element, scales included
TESSERA_API int dtype_bits(DType t);      // element width without scales: bf16 16, fp8 8, nvfp4 4
TESSERA_API const char* dtype_name(DType t);
TESSERA_API std::optional<DType> dtype_from_name(std::string_view name);
// The canonical names, in enum order (what the schema accepts, besides the float32,
// bfloat16, float16 aliases).
TESSERA_API const std::vector<std::string>& dtype_names();

// The wider (more bytes) of two formats: the GEMM peak that applies to a product. Ties go to `a`.
inline DType wider_dtype(DType a, DType b) { return dtype_bytes(a) >= dtype_bytes(b) ? a : b; }

// The weight matrices a GEMM multiplies by. `other` (the MoE router, and any stage built
// outside step_work) uses the model's `weights` format.
enum class WeightPart : std::uint8_t {
  other,           // router; default
  attention,       // q/k/v/o projections (MLA: every attention projection)
  ffn,             // dense FFN
  experts,         // routed experts (input: the dispatch payload)
  shared_experts,  // shared experts (weights: expert_weights; input: activations)
  lm_head,         // lm_head and the token embedding
};
inline constexpr int kWeightPartCount = 6;

// The number formats of one model (a model file's or scenario's `dtype:` block). Keys left
// unset follow the documented defaults (docs/scenario-format.md "Number formats").
struct DTypes {
  DType weights = DType::bf16;  // every weight matrix whose part is not named below
  DType kv = DType::bf16;       // KV cache storage
  DType activations = DType::bf16;
  std::optional<DType> attention_weights, ffn_weights, expert_weights, lm_head_weights;  // default: weights
  std::optional<DType> attention;  // attention math (QK^T, PV); default: the wider of activations and bf16
  std::optional<DType> dispatch;   // MoE dispatch payload and expert GEMM input; default: activations
  // Recurrent state of linear and mamba layers; default: activations (vLLM's mamba_ssm_cache_dtype
  // "auto": the model's format).
  std::optional<DType> state;

  TESSERA_API DType weights_of(WeightPart p) const;
  TESSERA_API DType attention_math() const;  // the resolved `attention`
  TESSERA_API DType dispatch_payload() const;
  // The format attention kernels run at: the wider of attention_math() and kv (an attention
  // kernel reads K and V in their stored format). Ties go to kv.
  TESSERA_API DType attention_kernel() const;
  // The format a GEMM of part `p` runs at: the wider of its weights and its input
  // activations (routed experts: the dispatch payload; other parts: activations).
  TESSERA_API DType gemm(WeightPart p) const;
};

}  // namespace tessera
