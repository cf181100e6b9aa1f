#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

// Number formats of weights, KV cache and activations.
enum class DType : std::uint8_t { fp32, bf16, fp16, fp8, int8, int4 };
inline constexpr int kDTypeCount = 6;

TESSERA_API double dtype_bytes(DType t);  // bf16 2, fp8 1, int4 0.5
TESSERA_API const char* dtype_name(DType t);
TESSERA_API std::optional<DType> dtype_from_name(std::string_view name);

// The wider (more bytes) of two formats: the GEMM peak that applies to a product.
inline DType wider_dtype(DType a, DType b) { return dtype_bytes(a) >= dtype_bytes(b) ? a : b; }

struct DTypes {
  DType weights = DType::bf16;
  DType kv = DType::bf16;
  DType activations = DType::bf16;
};

}  // namespace tessera
