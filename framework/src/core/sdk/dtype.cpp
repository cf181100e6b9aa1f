#include "tessera/dtype.hpp"

#include <array>
#include <string>

namespace tessera {

namespace {
struct DTypeInfo {
  DType type;
  const char* name;
  double bytes;  // per element, block scales included
  int bits;      // per element, scales excluded
};
// Block-scaled formats: OCP Microscaling Formats (MX) Specification v1.0 (MXFP8 E4M3, MXFP4
// E2M1; one shared E8M0 scale per block of 32); NVIDIA NVFP4 (E2M1, one E4M3 scale per block
// of 16, plus one fp32 scale per tensor, not counted). Bytes per element = bits/8 + scale
// bytes / block size.
constexpr std::array<DTypeInfo, kDTypeCount> kInfo{{
    {DType::fp32, "fp32", 4.0, 32},
    {DType::bf16, "bf16", 2.0, 16},
    {DType::fp16, "fp16", 2.0, 16},
    {DType::fp8, "fp8", 1.0, 8},
    {DType::int8, "int8", 1.0, 8},
    {DType::int4, "int4", 0.5, 4},
    {DType::nvfp4, "nvfp4", 0.5 + 1.0 / 16, 4},  // 0.5625
    {DType::mxfp4, "mxfp4", 0.5 + 1.0 / 32, 4},  // 0.53125
    {DType::mxfp8, "mxfp8", 1.0 + 1.0 / 32, 8},  // 1.03125
}};
static_assert(kInfo.size() == static_cast<std::size_t>(DType::mxfp8) + 1, "one row per DType, in order");
}  // namespace

double dtype_bytes(DType t) { return kInfo[static_cast<std::size_t>(t)].bytes; }
int dtype_bits(DType t) { return kInfo[static_cast<std::size_t>(t)].bits; }
const char* dtype_name(DType t) { return kInfo[static_cast<std::size_t>(t)].name; }

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& i : kInfo)
    if (name == i.name) return i.type;
  if (name == "float32") return DType::fp32;
  if (name == "bfloat16") return DType::bf16;
  if (name == "float16") return DType::fp16;
  return std::nullopt;
}

const std::vector<std::string>& dtype_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& i : kInfo) v.emplace_back(i.name);
    return v;
  }();
  return names;
}

DType DTypes::weights_of(WeightPart p) const {
  switch (p) {
    case WeightPart::attention:
      return attention_weights.value_or(weights);
    case WeightPart::ffn:
      return ffn_weights.value_or(weights);
    case WeightPart::experts:
    case WeightPart::shared_experts:
      return expert_weights.value_or(weights);
    case WeightPart::lm_head:
      return lm_head_weights.value_or(weights);
    case WeightPart::other:
      break;
  }
  return weights;
}

// Stacks dequantise an 8- or 4-bit KV cache and attend in 16 bits unless told otherwise
// (docs/physics.md §1): the default never goes below bf16, and keeps fp16/fp32 activations.
DType DTypes::attention_math() const { return attention.value_or(wider_dtype(activations, DType::bf16)); }

DType DTypes::dispatch_payload() const { return dispatch.value_or(activations); }

DType DTypes::attention_kernel() const { return wider_dtype(kv, attention_math()); }

DType DTypes::gemm(WeightPart p) const {
  return wider_dtype(weights_of(p), p == WeightPart::experts ? dispatch_payload() : activations);
}

}  // namespace tessera
