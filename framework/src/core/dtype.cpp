#include "tessera/dtype.hpp"

#include <array>
#include <string>

namespace tessera {

namespace {
struct DTypeInfo {
  DType type;
  const char* name;
  double bytes;
};
constexpr std::array<DTypeInfo, kDTypeCount> kInfo{{
    {DType::fp32, "fp32", 4.0},
    {DType::bf16, "bf16", 2.0},
    {DType::fp16, "fp16", 2.0},
    {DType::fp8, "fp8", 1.0},
    {DType::int8, "int8", 1.0},
    {DType::int4, "int4", 0.5},
}};
}  // namespace

double dtype_bytes(DType t) { return kInfo[static_cast<std::size_t>(t)].bytes; }
const char* dtype_name(DType t) { return kInfo[static_cast<std::size_t>(t)].name; }

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& i : kInfo)
    if (name == i.name) return i.type;
  if (name == "float32") return DType::fp32;
  if (name == "bfloat16") return DType::bf16;
  if (name == "float16") return DType::fp16;
  return std::nullopt;
}

}  // namespace tessera
