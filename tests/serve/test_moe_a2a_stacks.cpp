// The MoE exchange each framework version runs per phase (docs/frameworks.md "MoE per phase"):
// the flag that selects a kernel names it, the version's `moe_a2a:` runs otherwise, and
// Tessera's default (DeepEP's auto mode) without a framework. Read from data/frameworks.yaml as
// shipped, so a flag whose kernel changes changes these answers.
#include <catch2/catch.hpp>

#include "scenario/serving_stacks/stack_launch.hpp"
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
// `pool`: [the prefill pool's prefill entries, the decode pool's decode entries] in the table's
// order; else an aggregated server's.
std::array<MoeA2a, 4> table(const std::string& text, DType weights, bool pool) {
  using Role = DeployPoint::Role;
  const ServingStackChoice ch = resolve_serving_stack(a2a_catalog(), text, SourceLocation{});
  const auto at = [&](Role r) {
    return stack_moe_a2a(ch.profile, ch.version(), moe_model(weights), r, EvalContext{}.moe_a2a);
  };
  if (!pool) return at(Role::aggregated);
  const auto p = at(Role::prefill), d = at(Role::decode);
  return {p[0], p[1], d[2], d[3]};
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

TEST_CASE(
    "moe a2a stacks: the priced kernel is the one the written flags select at every attention-DP point") {
  // For every version, role, number format and attention-DP configuration with ep > 1: the kernel
  // of the first flag the script writes that names one for the phase (else the version's
  // moe_a2a) equals the table the step reads at that phase and EP width.
  std::size_t checked = 0;
  using Role = DeployPoint::Role;
  for (const ServingStackProfile& f : a2a_catalog().frameworks)
    for (const ServingStackVersion& v : f.versions)
      for (DType weights : {DType::bf16, DType::fp8})
        for (Role role : {Role::aggregated, Role::prefill, Role::decode}) {
          const ModelSpec model = moe_model(weights);
          const auto table = stack_moe_a2a(f, v, model, role, EvalContext{}.moe_a2a);
          for (int tp : {1, 2, 4, 8})
            for (int dp : {2, 4, 8})
              for (int ep = 2; ep <= tp * dp; ep *= 2) {
                DeployPoint p;
                p.config.tp = tp;
                p.config.dp = dp;
                p.config.ep = ep;
                p.config.ffn_shard_scope = FfnShardScope::tp_cp_dp;
                p.role = role;
                p.dtypes = model.dtype;
                for (int phase = 0; phase < 2; ++phase) {
                  if ((role == Role::prefill && phase == 1) || (role == Role::decode && phase == 0)) continue;
                  MoeA2a written = phase == 0 ? v.moe_a2a.prefill : v.moe_a2a.decode;
                  for (const ServingStackFlag& flag : v.flags) {
                    const std::optional<MoeA2a>& k = phase == 0 ? flag.a2a_prefill : flag.a2a_decode;
                    if (k && flag_applies(flag, p, model, f)) {
                      written = *k;
                      break;
                    }
                  }
                  INFO(f.name << " " << v.version << " tp " << tp << " dp " << dp << " ep " << ep << " phase "
                              << phase << " role " << static_cast<int>(role));
                  CHECK(table[static_cast<std::size_t>(2 * phase + (ep == tp * dp ? 1 : 0))] == written);
                  ++checked;
                }
              }
        }
  CHECK(checked > 1000);
}
