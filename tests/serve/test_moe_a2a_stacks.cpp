// The MoE exchange each framework version runs per phase (docs/frameworks.md "MoE per phase"):
// the flag that selects a kernel names it, the version's `moe_a2a:` runs otherwise, and
// Tessera's default (DeepEP's auto mode) without a framework. Read from data/frameworks.yaml as
// shipped, so a flag whose kernel changes changes these answers.
#include <catch2/catch.hpp>

#include "scenario/serving_stacks/stack_moe_a2a.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

using namespace tessera;

namespace {

const ServingStackCatalog& a2a_catalog() {
  static const ServingStackCatalog c =
      load_serving_stack_catalog(default_serving_stacks_path(TESSERA_SOURCE_DIR));
  return c;
}

ModelSpec moe_model(DType weights) {
  ModelSpec m;
  m.has_moe = true;
  m.moe.experts = 256;
  m.moe.top_k = 8;
  m.dtype.weights = weights;
  return m;
}

// EvalContext::moe_a2a's table for `text` ("sglang@0.5.9").
std::array<MoeA2a, 4> table(const std::string& text, DType weights, bool disaggregated) {
  const ServingStackChoice ch = resolve_serving_stack(a2a_catalog(), text, SourceLocation{});
  return stack_moe_a2a(ch.profile, ch.version(), moe_model(weights), disaggregated, EvalContext{}.moe_a2a);
}

constexpr auto kN = MoeA2a::deepep_normal;
constexpr auto kLL = MoeA2a::deepep_low_latency;
constexpr auto kGS = MoeA2a::gather_scatter;
constexpr auto kAR = MoeA2a::all_reduce_gather;

}  // namespace

TEST_CASE(
    "moe a2a stacks: SGLang runs DeepEP auto with FP8 weights and EP over the FFN group or else its DP "
    "gathers") {
  // [prefill part-EP, prefill full-EP, decode part-EP, decode full-EP]
  CHECK(table("sglang@0.5.9", DType::fp8, false) == std::array<MoeA2a, 4>{kAR, kN, kGS, kLL});
  CHECK(table("sglang@0.5.9", DType::fp8, true) == std::array<MoeA2a, 4>{kAR, kN, kGS, kLL});
  CHECK(table("sglang@0.5.9", DType::bf16, false) == std::array<MoeA2a, 4>{kAR, kAR, kGS, kGS});
}

TEST_CASE(
    "moe a2a stacks: vLLM runs DeepEP per pool when disaggregated and allgather_reducescatter aggregated") {
  for (const char* v : {"vllm@0.19.0", "vllm@0.12.0", "vllm@0.11.2"}) {
    INFO(v);
    CHECK(table(v, DType::bf16, false) == std::array<MoeA2a, 4>{kGS, kGS, kGS, kGS});
    CHECK(table(v, DType::bf16, true) == std::array<MoeA2a, 4>{kN, kN, kLL, kLL});
  }
}

TEST_CASE(
    "moe a2a stacks: TensorRT-LLM gathers and reduce-scatters and no framework runs DeepEP's auto mode") {
  for (const char* v : {"tensorrt-llm@1.1", "tensorrt-llm@1.0"}) {
    INFO(v);
    CHECK(table(v, DType::fp8, false) == std::array<MoeA2a, 4>{kGS, kGS, kGS, kGS});
    CHECK(table(v, DType::fp8, true) == std::array<MoeA2a, 4>{kGS, kGS, kGS, kGS});
  }
  CHECK(EvalContext{}.moe_a2a == std::array<MoeA2a, 4>{kN, kN, kLL, kLL});
}

TEST_CASE("moe a2a stacks: every version states what it runs without a flag") {
  for (const ServingStackProfile& f : a2a_catalog().frameworks)
    for (const ServingStackVersion& v : f.versions) {
      INFO(f.name << " " << v.version);
      CHECK(v.moe_a2a.set);
      CHECK_FALSE(v.moe_a2a.source.empty());
    }
}
