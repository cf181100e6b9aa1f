// Number formats (docs/physics.md §1 "Number formats"): bytes with block scales, names, the
// defaults of the optional `dtype:` keys, and the peak a missing format falls back to.
#include <catch2/catch.hpp>

#include <string>

#include "tessera/dtype.hpp"
#include "tessera/machine.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_dtype {

using namespace tessera;

namespace {
double& flops(MachineSpec& m, DType t) { return m.pe.flops[static_cast<std::size_t>(t)]; }
}  // namespace

TEST_CASE("dtype: bytes per element include the block scales", "[core][dtype]") {
  CHECK(dtype_bytes(DType::nvfp4) == 0.5625);   // 4 bits + one 8-bit E4M3 scale per 16: 0.5 + 1/16
  CHECK(dtype_bytes(DType::mxfp4) == 0.53125);  // 4 bits + one 8-bit E8M0 scale per 32: 0.5 + 1/32
  CHECK(dtype_bytes(DType::mxfp8) == 1.03125);  // 8 bits + one E8M0 scale per 32: 1 + 1/32
  CHECK(dtype_bytes(DType::fp8) == 1.0);
  CHECK(dtype_bytes(DType::int4) == 0.5);
  CHECK(dtype_bits(DType::nvfp4) == 4);
  CHECK(dtype_bits(DType::mxfp4) == 4);
  CHECK(dtype_bits(DType::mxfp8) == 8);
  CHECK(dtype_bits(DType::bf16) == 16);
  CHECK(dtype_bits(DType::fp32) == 32);
}

TEST_CASE("dtype: TensorRT-LLM post-quant dispatch payload sizes for hidden 7168", "[core][dtype]") {
  // TensorRT-LLM tech blog 18 "Post-Quant Dispatch" (DeepSeek-V3, H = 7168), scales included:
  // MXFP8 7392 B/token = 7168 * (1 + 1/32); NVFP4 4032 B/token = 7168 * (0.5 + 1/16).
  CHECK(7168 * dtype_bytes(DType::mxfp8) == 7392.0);
  CHECK(7168 * dtype_bytes(DType::nvfp4) == 4032.0);
  CHECK(7168 * dtype_bytes(DType::bf16) == 14336.0);  // "NVFP4 ... ~28% of BF16": 4032/14336 = 0.28125
}

TEST_CASE("dtype: names round trip and the schema list is complete", "[core][dtype]") {
  const auto& names = dtype_names();
  REQUIRE(names.size() == static_cast<std::size_t>(kDTypeCount));
  for (int i = 0; i < kDTypeCount; ++i) {
    const auto t = static_cast<DType>(i);
    CHECK(names[static_cast<std::size_t>(i)] == dtype_name(t));
    CHECK(dtype_from_name(dtype_name(t)) == t);
  }
  CHECK(dtype_from_name("nvfp4") == DType::nvfp4);
  CHECK(dtype_from_name("mxfp4") == DType::mxfp4);
  CHECK(dtype_from_name("mxfp8") == DType::mxfp8);
  CHECK(dtype_from_name("bfloat16") == DType::bf16);
  CHECK_FALSE(dtype_from_name("fp4").has_value());  // ambiguous: name the block format
}

TEST_CASE("dtype: attention defaults to bf16 math - never narrower than the KV cache", "[core][dtype]") {
  DTypes d;  // bf16 everywhere
  CHECK(d.attention_math() == DType::bf16);
  CHECK(d.attention_kernel() == DType::bf16);
  // fp8 KV with fp8 activations: dequantised and attended in bf16 ...
  d.kv = d.activations = DType::fp8;
  CHECK(d.attention_math() == DType::bf16);
  CHECK(d.attention_kernel() == DType::bf16);
  // ... unless the scenario asks for an fp8 attention kernel.
  d.attention = DType::fp8;
  CHECK(d.attention_kernel() == DType::fp8);
  // An fp8 attention kernel over a bf16 cache reads bf16 K and V: bf16.
  d.kv = DType::bf16;
  CHECK(d.attention_kernel() == DType::bf16);
  // 16- and 32-bit activations keep their format as the default; ties go to the KV format.
  DTypes h;
  h.activations = h.kv = DType::fp16;
  CHECK(h.attention_math() == DType::fp16);
  CHECK(h.attention_kernel() == DType::fp16);
  h.kv = DType::bf16;
  CHECK(h.attention_kernel() == DType::bf16);
  DTypes f;
  f.activations = DType::fp32;
  CHECK(f.attention_kernel() == DType::fp32);  // as before: the wider of kv and activations
  f.activations = DType::nvfp4;
  f.kv = DType::nvfp4;
  CHECK(f.attention_kernel() == DType::bf16);
}

TEST_CASE("dtype: parts take `weights` unless named - the experts' input is the dispatch format",
          "[core][dtype]") {
  DTypes d;
  d.weights = DType::fp8;
  for (const WeightPart p : {WeightPart::other, WeightPart::attention, WeightPart::ffn, WeightPart::experts,
                             WeightPart::shared_experts, WeightPart::lm_head})
    CHECK(d.weights_of(p) == DType::fp8);
  CHECK(d.dispatch_payload() == DType::bf16);  // = activations
  d.expert_weights = DType::nvfp4;
  d.lm_head_weights = DType::bf16;
  CHECK(d.weights_of(WeightPart::experts) == DType::nvfp4);
  CHECK(d.weights_of(WeightPart::shared_experts) == DType::nvfp4);
  CHECK(d.weights_of(WeightPart::lm_head) == DType::bf16);
  CHECK(d.weights_of(WeightPart::other) == DType::fp8);  // the router
  // GEMM format = the wider of the part's weights and its input.
  CHECK(d.gemm(WeightPart::attention) == DType::bf16);  // fp8 weights, bf16 activations
  CHECK(d.gemm(WeightPart::experts) == DType::bf16);    // nvfp4 weights, bf16 dispatch
  d.dispatch = DType::nvfp4;
  CHECK(d.gemm(WeightPart::experts) == DType::nvfp4);        // W4A4: FP4 peak
  CHECK(d.gemm(WeightPart::shared_experts) == DType::bf16);  // not dispatched: activations
  d.activations = DType::fp8;
  CHECK(d.gemm(WeightPart::attention) == DType::fp8);
  CHECK(d.gemm(WeightPart::lm_head) == DType::bf16);
  CHECK(d.dispatch_payload() == DType::nvfp4);
}

TEST_CASE("machine: FP4 peaks and their fallbacks", "[core][dtype]") {
  MachineSpec m;
  flops(m, DType::bf16) = 2250e12;
  flops(m, DType::fp8) = 4500e12;
  // Hopper-like: no FP4 units -> fp8; mxfp8 runs at the fp8 rate.
  CHECK(m.peak_flops(DType::nvfp4) == 4500e12);
  CHECK(m.peak_flops(DType::mxfp4) == 4500e12);
  CHECK(m.peak_flops(DType::mxfp8) == 4500e12);
  // One FP4 key serves both FP4 formats (same tensor-core path).
  flops(m, DType::nvfp4) = 9000e12;
  CHECK(m.peak_flops(DType::nvfp4) == 9000e12);
  CHECK(m.peak_flops(DType::mxfp4) == 9000e12);
  flops(m, DType::nvfp4) = 0;
  flops(m, DType::mxfp4) = 8000e12;
  CHECK(m.peak_flops(DType::nvfp4) == 8000e12);
  // int4 never runs on the FP4 units: int4 -> int8 -> fp8.
  CHECK(m.peak_flops(DType::int4) == 4500e12);
  // fp8 never borrows a narrower format's peak.
  CHECK(m.peak_flops(DType::fp8) == 4500e12);
  flops(m, DType::fp8) = 0;
  CHECK(m.peak_flops(DType::fp8) == 2250e12);
  CHECK(m.peak_flops(DType::mxfp8) == 2250e12);
  CHECK(m.peak_flops(DType::nvfp4) == 8000e12);  // its twin mxfp4
  flops(m, DType::mxfp4) = 0;
  CHECK(m.peak_flops(DType::nvfp4) == 2250e12);  // -> fp8 (none) -> bf16
}

}  // namespace test_dtype
