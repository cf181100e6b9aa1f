#pragma once
// Serving-framework profiles (data/frameworks.yaml, docs/frameworks.md): what one version of
// vLLM, SGLang or TensorRT-LLM can run, in Tessera's knobs, and the flags that express it.
// Data only: the host reads the file; adding a framework or version needs no recompiling.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scenario/schemas/prefix_cache_spec.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "scenario/schemas/scheduler_rules.hpp"
#include "scenario/schemas/speculative_spec.hpp"
#include "tessera/dtype.hpp"
#include "tessera/error.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"

namespace tessera {

// A factor of a flag's value (docs/frameworks.md "Flags"): dcp = tp / kv_heads, the KV split
// inside the TP group (kv_shard_mode split with tp > kv_heads).
// offload_gib: the host DRAM KV offload of a replica's PEs together, GiB (vLLM's
// --kv-offloading-size); offload_gb: one PE's, GB (SGLang's --hicache-size); offload_bytes: one
// PE's, bytes (TensorRT-LLM's host_cache_size).
enum class FlagTerm : std::uint8_t {
  tp,
  pp,
  dp,
  ep,
  cp,
  batch,
  token_budget,
  dcp,
  offload_gib,
  offload_gb,
  offload_bytes,
  spec_steps,         // serving.speculative.steps, k
  spec_draft_tokens,  // k + 1: the tokens a verify step scores per sequence (SGLang's num-draft-tokens)
  redundant_experts,  // EPLB's R (serving.eplb, a pool's)
  expert_slots        // E + R: the physical experts of a MoE layer (TensorRT-LLM's num_slots)
};
inline constexpr std::size_t kFlagTerms = 15;
TESSERA_API const char* flag_term_name(FlagTerm t);

// When a flag is written.
enum class FlagCondition : std::uint8_t {
  pp_gt1,
  dp_gt1,
  ep_gt1,
  cp_gt1,
  attention_dp,     // dp > 1 and ffn_shard_scope TP+CP+DP
  no_attention_dp,  // !attention_dp
  kv_split,         // kv_shard_mode split with tp > kv_heads
  prefill,          // a disaggregated prefill pool
  decode,           // a disaggregated decode pool
  disaggregated,    // either pool
  aggregated,       // not disaggregated
  replicas_flag,    // the framework launches dp replicas with one command
  prefix_caching,   // the engine caches prefixes (serving.prefix_cache, else the version's default)
  no_prefix_caching,
  offload_dram,       // KV offload to host DRAM (serving.prefix_cache.offload)
  offload_ssd,        // ... and to local SSD
  speculative_mtp,    // serving.speculative with the model's MTP module
  speculative_eagle,  // ... with an EAGLE-3 head
  speculative_draft,  // ... with a separate draft model
  ep_full,            // ep > 1 spans the whole FFN group (each expert on one PE: DeepEP's layout)
  eplb,               // the pool runs the expert-parallel load balancer (serving.eplb, a pool's)
};
TESSERA_API const char* flag_condition_name(FlagCondition c);

// A number format a flag is written for (`when: [weights=fp8]`, data/frameworks.yaml;
// stack_precision.hpp): the checkpoint's weights, the KV cache's, the activations'.
enum class FormatRole : std::uint8_t { weights, kv, activations };
struct FormatCondition {
  FormatRole role = FormatRole::weights;
  DType dtype = DType::bf16;
};

struct ServingStackFlag {
  std::string flag;             // "--tensor-parallel-size", or "" for a YAML entry or a comment
  std::string yaml;             // the key in the config file (config_flag), or ""
  std::string comment;          // a `#` line of the launch script (what no flag can say), or ""
  std::vector<FlagTerm> value;  // the value is the product of these; empty: literal or a switch
  std::string literal;          // a fixed value ("" with an empty value: a switch)
  std::vector<FlagCondition> when;
  std::vector<FormatCondition> formats;  // the `when:` items ROLE=FORMAT, all of which must hold
  std::string default_text, source;
  SourceLocation where;
  bool is_switch() const { return value.empty() && literal.empty(); }
  const std::string& name() const { return !flag.empty() ? flag : !yaml.empty() ? yaml : comment; }
  // The MoE exchange kernel the flag selects in a prefill (or mixed) and in a decode step
  // (`a2a_prefill:`, `a2a_decode:`; stack_moe_a2a.hpp), if any.
  std::optional<MoeA2a> a2a_prefill, a2a_decode;
};

enum class EpRule : std::uint8_t { none, tp_dp, ffn_group };
enum class AttentionDpRule : std::uint8_t { none, moe, sw };  // sw: "switch"
TESSERA_API const char* ep_rule_name(EpRule r);
TESSERA_API const char* attention_dp_rule_name(AttentionDpRule r);

// How a version sizes its KV cache (`kv_cache:` of data/frameworks.yaml, docs/frameworks.md "KV
// capacity"): the rule and the knobs it reads, with the version's defaults.
enum class KvRule : std::uint8_t { none, vllm, sglang, trtllm };
TESSERA_API const char* kv_rule_name(KvRule r);
// The knobs a rule reads (scenario `engine:` keys; `gpu_memory` is every rule's).
TESSERA_API const std::vector<std::string>& kv_rule_knobs(KvRule r);
// A knob whose value is bytes (a quantity such as `0.25 GiB`): gpu_memory, sampler_bytes,
// non_torch, non_torch_tp, load_overhead.
TESSERA_API bool kv_knob_is_bytes(const std::string& knob);
// "" when `value` is one `knob` may take, else what it expects ("a memory fraction in (0, 1]",
// "a block of 1 to 65536 tokens", ...): the one check of the catalog's defaults and `engine:`.
TESSERA_API std::string kv_knob_problem(const std::string& knob, double value);
// Block sizes, token and sequence counts a knob may state at most.
inline constexpr double kMaxKvBlock = 65536;
inline constexpr double kMaxKvCount = 1e12;

struct KvKnobValue {
  std::string name;
  double value = 0;  // a fraction, a token count, or bytes (kv_knob_is_bytes); -1: `auto` (SGLang)
  std::string source;
  SourceLocation where;
};

struct ServingStackKvCache {
  KvRule rule = KvRule::none;
  std::vector<KvKnobValue> defaults;
  std::string source;
  SourceLocation where;
};

// The resolved rule of a scenario (its framework's defaults, then its `engine:` keys): what the
// host's StepTimer admits by (eval/engine_kv.hpp). rule none: the memory model's budget decides.
struct EngineKv {
  KvRule rule = KvRule::none;
  std::string label;  // "vLLM 0.12.0"
  double memory_fraction =
      -1;  // gpu_memory_utilization | mem_fraction_static (< 0: auto) | free_gpu_memory_fraction
  std::int64_t block = 1;       // block_size | page_size | tokens_per_block (tokens)
  std::int64_t max_tokens = 0;  // TensorRT-LLM max_tokens (0: none)
  double gpu_memory = 0;  // bytes the engine sees as the GPU's total (0: the machine's hbm.reported, else
                          // hbm.capacity); SGLang: its free memory after the distributed init
  // vLLM's profile: the sampler's torch peak per vocabulary entry and sampled sequence (it samples
  // min(max_num_seqs, the batched-token limit) sequences; 0: the memory model's transient set
  // alone), bytes; max_num_seqs when the caller states no batch; the non-torch increase (NCCL and
  // all-reduce buffers, attention workspaces) at tp 1 and at tp > 1, bytes.
  double sampler_bytes = 0;
  std::int64_t max_num_seqs = 0;
  double non_torch = 0, non_torch_tp = 0;
  double load_overhead = 0;  // SGLang: bytes the weights load takes beyond the parameters
  // A speculative drafter the engine loads beside the model (serving.speculative, docs/physics.md
  // §12.8): its decoder layers (weights and KV as the model's average layer) and its input
  // projection over f hidden sizes (f H^2 weights, replicated on the TP ranks). 0: none.
  double draft_layers = 0, draft_fc_inputs = 0;
  bool draft_dense = false;  // an EAGLE head: a dense layer (attention and a dense FFN)
  // A separate draft model (method draft) loaded beside the model: its weights and KV per token
  // from its evaluator's memory model at the configuration (Evaluator::draft_model).
  bool draft_model = false;
  bool active() const { return rule != KvRule::none; }
  // The engine at a serving point that drafts `draft_tokens` tokens per sequence: without its
  // drafter when 0 (a sweep's k = 0 launches the engine without speculation).
  EngineKv at_draft(std::int64_t draft_tokens) const {
    EngineKv r = *this;
    if (draft_tokens <= 0) {
      r.draft_layers = r.draft_fc_inputs = 0;
      r.draft_model = false;
    }
    return r;
  }
};

// The tiers a version's KV offloading reaches (data/frameworks.yaml `kv_offload:`), nearest
// first, and whether it copies each block there as it fills (through) or as HBM evicts it.
struct StackKvOffload {
  std::vector<OffloadTierKind> tiers;
  bool write_through = false;
  std::string source;
};

// The drafters a version's speculative decoding runs (data/frameworks.yaml `speculative:`).
struct StackSpeculative {
  std::vector<SpeculativeMethod> methods;
  // The drafters it does not run beside attention data parallelism (SGLang's STANDALONE).
  std::vector<SpeculativeMethod> no_attention_dp;
  std::string source;
};

// The MoE exchange a version runs when no flag selects one (data/frameworks.yaml `moe_a2a:`).
struct StackMoeA2a {
  bool set = false;
  MoeA2a prefill = MoeA2a::deepep_normal, decode = MoeA2a::deepep_low_latency;
  std::string source;
};

struct ServingStackVersion {
  std::string version, released, docs;
  bool pp = true, dp = true, cp = false;
  EpRule ep = EpRule::none;
  AttentionDpRule attention_dp = AttentionDpRule::none;
  bool attention_dp_tp1 = false;  // attention-DP only with tp 1 (TensorRT-LLM's enable_attention_dp)
  bool kv_split = false;
  std::vector<std::int8_t> tp_placement{0};
  std::vector<std::int8_t> cp_placement;
  std::vector<CpRingVariant> cp_ring_variant{CpRingVariant::kv};
  std::string mixing = "mixed";
  bool disaggregated = false;
  bool disaggregated_pp = true;  // false: a disaggregated pool runs pp 1 only (vLLM's NIXL connector)
  bool finite_token_budget = true;
  std::int64_t max_batch = 0;
  // what its scheduler does when KV runs out (the request simulator, docs/physics.md §12.5)
  requests::Preemption preemption = requests::Preemption::recompute;
  // how its scheduler orders, budgets, admits and picks a victim (`scheduler:`; left out: vLLM
  // V1's rules), `mixed` from `mixing`
  requests::SchedulerRules scheduler;
  // prefix caching on by default (`prefix_caching:`), and its KV offload (`kv_offload:`)
  bool prefix_caching = false;
  std::string prefix_caching_source;
  StackKvOffload kv_offload;
  StackSpeculative speculative;  // `speculative:` (none: no drafter)
  StackMoeA2a moe_a2a;           // `moe_a2a:` (unset: Tessera's default, DeepEP's auto mode)
  std::vector<ServingStackFlag> flags;
  ServingStackKvCache kv_cache;  // rule none when the file gives no `kv_cache:`
  SourceLocation where;
};

struct ServingStackProfile {
  std::string name, title, command, config_flag;
  bool replicas_by_flag = true;               // `replicas: flag`; false: `instances`
  std::vector<ServingStackVersion> versions;  // newest first
  SourceLocation where;
};

// A version's KV rule with its defaults (the scenario's `engine:` keys then apply on top).
TESSERA_API EngineKv engine_kv_defaults(const ServingStackProfile& profile, const ServingStackVersion& v);
// Sets one `engine:` knob (kv_rule_knobs) of `e` to `value` (bytes, a fraction or a token count).
TESSERA_API void apply_kv_knob(EngineKv& e, const std::string& knob, double value);
// The listed version nearest `version` ("0.4.3+rocm614", "10.2"), by its leading numbers: of the
// listed versions just below and just above it, the one sharing more leading fields, then the
// nearer in the first differing field, ties to the newer (only one side: that one); the newest
// listed when `version` does not start with a number.
TESSERA_API const ServingStackVersion& nearest_version(const ServingStackProfile& profile,
                                                       const std::string& version);

struct ServingStackCatalog {
  std::string file;
  std::vector<ServingStackProfile> frameworks;
};

// Reads and checks a frameworks file; throws InputError with FILE:LINE:COL diagnostics.
TESSERA_API ServingStackCatalog load_serving_stack_catalog(const std::string& path);
// data_root/data/frameworks.yaml
TESSERA_API std::string default_serving_stacks_path(const std::string& data_root);

// A resolved `framework: NAME[@VERSION]`.
struct ServingStackChoice {
  bool set = false;
  ServingStackProfile profile;  // versions holds the chosen one only
  std::string catalog_file;
  bool version_given = false;  // `NAME@VERSION`, else the newest listed
  SourceLocation where;
  const ServingStackVersion& version() const { return profile.versions.front(); }
  std::string label() const { return profile.name + "@" + version().version; }  // "vllm@0.12.0"
};

// Resolves `text` ("vllm", "vllm@0.11.2") against the catalog. Unknown framework: the nearest
// name and the list; unknown version: the listed versions. Throws InputError at `where`.
TESSERA_API ServingStackChoice resolve_serving_stack(const ServingStackCatalog& catalog,
                                                     const std::string& text, const SourceLocation& where);

// The names every framework accepts, "vllm, sglang, tensorrt-llm".
TESSERA_API std::string serving_stack_names(const ServingStackCatalog& catalog);

}  // namespace tessera
