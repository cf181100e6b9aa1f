// A measured row's precision column -> Tessera's dtypes (analysis/row_precision.hpp).
#include "analysis/row_precision.hpp"

#include "core/input_text.hpp"

namespace tessera::validation {

std::optional<DTypes> dtypes_from_precision(const std::string& precision, std::string& why) {
  const std::string p = lower(trim(precision));
  DTypes d;
  if (p.empty()) {
    why = "precision not stated";
    return std::nullopt;
  }
  auto all = [&](DType t) {
    d.weights = d.kv = d.activations = t;
    return d;
  };
  if (p == "fp16" || p == "float16" || p == "half") return all(DType::fp16);
  if (p == "bf16" || p == "bfloat16") return all(DType::bf16);
  if (p == "fp32" || p == "float32") return all(DType::fp32);
  if (p == "fp8")
    return all(DType::fp8);  // weights, KV and activations in fp8 (TensorRT-LLM --enable_fp8 --fp8_kv_cache)
  // One fp8 format named and nothing else: "fp8 (e4m3)", "fp8 (use_fp8=True)" (MLPerf's flag),
  // DeepGEMM's "fp8 e4m3 inputs with fine-grained (block) scaling ...".
  if (p == "fp8 (e4m3)" || p == "fp8 e4m3" || p == "fp8 (use_fp8=true)" || p.rfind("fp8 e4m3 inputs", 0) == 0)
    return all(DType::fp8);
  // "fp4 (format, e.g. NVFP4 vs MXFP4, not stated)": both formats run on the same FP4 tensor cores
  // at one peak (machines/gb200-nvl72.yaml); they differ only in scale bytes (0.5625 vs 0.53125 B
  // per element). nvfp4, the wider, is taken (docs/accuracy.md "How a row is mapped").
  if (p.rfind("fp4 (format", 0) == 0) return all(DType::nvfp4);
  for (const char* name : {"nvfp4", "mxfp4", "mxfp8"})
    if (p == name) return all(*dtype_from_name(name));
  if (p.find("not stated") != std::string::npos) {
    why = "precision '" + precision + "': part of it is not stated";
    return std::nullopt;
  }
  if (p.find("int4") != std::string::npos || p.find("awq") != std::string::npos) {
    d = all(DType::fp16);
    d.weights = DType::int4;  // weight-only: activations and KV stay 16-bit
    return d;
  }
  if (p.find("int8") != std::string::npos) {
    if (p.find("weight") != std::string::npos) {
      d = all(DType::fp16);
      d.weights = DType::int8;
      return d;
    }
    return all(DType::int8);
  }
  why = "precision '" + precision + "' has no dtype mapping";
  return std::nullopt;
}

}  // namespace tessera::validation
