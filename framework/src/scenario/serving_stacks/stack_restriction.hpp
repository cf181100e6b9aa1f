#pragma once
// What a framework version cannot run, dropped from a scenario's space (docs/frameworks.md
// "Restricting the space"): sweep values (cp > 1 without prefill context parallelism, qoml
// rings, TP+CP FFN scopes, token budget 0, ...) when the scenario loads, and whole
// configurations (vLLM's ep = 1 or tp*dp, attention-DP rules, the KV split) when a study
// enumerates them. Nothing is dropped silently: every drop is counted with its reason.
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/serving_stacks/stack_profile.hpp"
#include "tessera/export.hpp"
#include "tessera/model.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera {

struct Sweep;

// Sweep values dropped, one entry per (knob, reason).
struct DroppedValues {
  std::string knob;    // "sweep.parallelism.cp", "sweep.serving.token_budget"
  std::string values;  // "2, 4"
  std::string reason;
  std::uint64_t count = 0;
};

// Removes from `sweep` the values `v` cannot run on `model`; returns what was removed. A knob
// left with no value throws InputError at `where` naming the framework and version.
TESSERA_API std::vector<DroppedValues> restrict_sweep(Sweep& sweep, const ServingStackChoice& fw,
                                                      const ModelSpec& model);

// Why a configuration cannot run on the framework (none: it can).
enum class ServingStackMiss : std::uint8_t {
  none,
  ep_not_tp_dp,
  moe_dp_needs_attention_dp,
  attention_dp_needs_tp1,
  kv_split,
  count
};
inline constexpr std::size_t kStackMisses = static_cast<std::size_t>(ServingStackMiss::count);
TESSERA_API const char* stack_miss_text(ServingStackMiss m);  // "ep must be 1 or tp*dp (...)"

// O(1), no allocation (the studies' enumeration loop).
TESSERA_API ServingStackMiss stack_miss(const ServingStackVersion& v, const ParallelConfig& c,
                                        const ModelSpec& model);

// The values a flag's conditions and terms see for one deployed configuration.
struct DeployPoint {
  ParallelConfig config;
  std::int64_t batch = 1, token_budget = 0;
  enum class Role : std::uint8_t { aggregated, prefill, decode } role = Role::aggregated;
  // Prefix caching on, and the KV offload tiers (each PE's host DRAM share, bytes; 0: no DRAM tier).
  bool prefix_caching = false;
  double offload_dram_bytes = 0;
  bool offload_ssd = false;
  // Speculative decoding (serving.speculative): k draft tokens (0: none), the drafter, and the
  // EAGLE head's name a literal's {head} stands for.
  std::int64_t spec_steps = 0;
  SpeculativeMethod spec_method = SpeculativeMethod::mtp;
  std::string spec_head{};
  // The expert-parallel load balancer of the pool (serving.eplb, a pool's), with R redundant experts.
  bool eplb = false;
  std::int64_t redundant_experts = 0;
  // The number formats the point serves (the scenario's dtype:, data/frameworks.yaml's ROLE=FORMAT
  // conditions).
  DTypes dtypes{};
};
TESSERA_API bool attention_dp(const ParallelConfig& c);
// tp / kv_heads when the configuration splits the KV inside the TP group, else 1.
TESSERA_API std::int64_t kv_split_degree(const ParallelConfig& c, const ModelSpec& model);
TESSERA_API std::int64_t flag_term_value(FlagTerm t, const DeployPoint& p, const ModelSpec& model);
TESSERA_API bool flag_condition_holds(FlagCondition c, const DeployPoint& p, const ModelSpec& model,
                                      const ServingStackProfile& f);

}  // namespace tessera
