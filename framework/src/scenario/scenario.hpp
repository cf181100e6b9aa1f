#pragma once
// A loaded, validated scenario: typed values only (no YAML past the loader).
#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "host/machine_blocks.hpp"
#include "host/plugin_choice.hpp"
#include "physics/kv_transfer.hpp"
#include "scenario/schemas/prefix_cache_spec.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "scenario/schemas/slo_spec.hpp"
#include "scenario/schemas/speculative_spec.hpp"
#include "scenario/serving_stacks/stack_restriction.hpp"
#include "tessera/error.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/plugin/param_set.hpp"
#include "tessera/units.hpp"
#include "tessera/workload.hpp"

namespace tessera {

// Defaults when left out: host/plugin_defaults.hpp.
struct PluginChoices {
  std::vector<PluginChoice> latency;  // `run` uses the first, `compare` all
  PluginChoice memory;
  PluginChoice search;
  std::vector<PluginChoice> objectives;  // the first ranks (serve: kServingObjectives when none)
  PluginChoice serving;                  // mode: serve only (default kServing)
  // mode: serve only: the request simulator's scheduling policy; name "" (the default): the
  // engine's built-in rules, its framework's (docs/physics.md §12.5 "Scheduling rules")
  PluginChoice scheduler;
};

// One hardware axis of `sweep.hardware`: a dotted path into the machine and its values (SI).
struct HardwareAxis {
  std::string path;  // "machine.pe.hbm.bandwidth", "machine.levels.cube.link_bw"
  Dimension dimension = Dimension::none;
  std::vector<double> values;
  SourceLocation where;
  // A machine-block parameter (machine.plugins.<plugin>.<param>): its values are typed and
  // checked against the plugin's machine schema once plugins are loaded
  // (host/plugin_axes.hpp); until then `values` hold NaN and `texts` the values as written.
  std::string plugin, param;
  // machine.<key>.<param> for a top-level block key (machine.efficiency.<param>): `plugin` stays
  // empty until plugins are loaded, then names the latency plugin that declares the key.
  std::string block_key;
  // A scenario plugin's parameter (plugins.latency.<name>.<param>, plugins.objectives.<name>.<param>,
  // plugins.memory.<param>, plugins.search.<param>): `plugin_kind` names the kind, `plugin` the
  // plugin (filled for memory and search once resolved); each point re-creates that plugin.
  bool scenario_plugin = false;
  PluginKind plugin_kind = PluginKind::latency;
  std::vector<std::string> texts;
  std::vector<SourceLocation> value_where;
  bool integer = false;  // the parameter is an integer (set as one in the ParamSet)
  // serving.speculative.<steps|acceptance> (explore on a serve scenario, docs/physics.md §12.8):
  // each point's serving study drafts with that value (Session::with_speculative).
  bool speculative = false;
};

// The parallelism grid (docs/specification.md §2.6 "What a sweep covers"): numeric knobs not listed are {1};
// discrete knobs not listed take all their values (placements: the PE and the first level).
struct Sweep {
  std::vector<std::int32_t> cp{1}, tp{1}, pp{1}, dp{1}, ep{1};
  std::vector<KvShardMode> kv_shard_mode{KvShardMode::split, KvShardMode::replicate};
  std::vector<FfnShardScope> ffn_shard_scope{FfnShardScope::tp, FfnShardScope::tp_cp,
                                             FfnShardScope::tp_cp_dp};
  std::vector<std::int8_t> tp_placement{0, 1};
  std::vector<std::int8_t> cp_placement{1, 0};
  // Where tp_placement / cp_placement were written (file empty: left out, the structural
  // defaults above); names written are checked against every pool machine too.
  SourceLocation tp_placement_where, cp_placement_where;
  std::vector<CpRingVariant> cp_ring_variant{CpRingVariant::kv, CpRingVariant::qoml};
  std::vector<HardwareAxis> hardware;
  // mode: serve (sweep.serving): sequences in flight per replica, and tokens per iteration
  // (decode and prefill together; 0 = no limit). Other modes: empty.
  std::vector<std::int64_t> serving_batch, serving_token_budget;
  // serve with serving.speculative (docs/physics.md §12.8): the draft lengths k (0: no drafting) and
  // the geometric acceptance rates searched per configuration; empty: the block's one value.
  std::vector<std::int64_t> serving_speculative_steps;
  std::vector<double> serving_acceptance;
};

// sweep.serving left out (docs/scenario-format.md "Serving"): batches of powers of two up to
// 256, TensorRT-LLM trtllm-serve's default --max_batch_size; one
// token budget of 8192, trtllm-serve's default --max_num_tokens. The texts are the field
// table's defaults (tests/scenario/test_field_table.cpp checks that they agree).
inline constexpr std::int64_t kDefaultServingBatch[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};
inline constexpr char kDefaultServingBatchText[] = "[1, 2, 4, 8, 16, 32, 64, 128, 256]";
inline constexpr std::int64_t kDefaultServingTokenBudget[] = {8192};
inline constexpr char kDefaultServingTokenBudgetText[] = "[8192]";

// serving.disaggregated.prefill.parallelism / .decode.parallelism: the sweep's configurations one
// pool may take (DeepSeek's own deployment: prefill EP32 with attention TP4, decode EP144 with
// attention DP), each list a subset of the sweep's; empty: any value of the sweep.
struct PoolParallelism {
  std::vector<std::int32_t> cp, tp, pp, dp, ep;
  std::vector<FfnShardScope> ffn_shard_scope;
  bool given() const {
    return !cp.empty() || !tp.empty() || !pp.empty() || !dp.empty() || !ep.empty() ||
           !ffn_shard_scope.empty();
  }
  // Whether the pool may run `c` (a canonical configuration: a listed scope that means the same
  // at c's cp and dp admits it; scenario/sweeps/pool_parallelism.cpp).
  TESSERA_API bool admits(const ParallelConfig& c) const;
};

// serving.eplb, serving.disaggregated.prefill.eplb / .decode.eplb: the expert-parallel load
// balancer with R redundant experts (docs/physics.md §4 "MoE load"), applied to the effective
// model (MoESpec::eplb, redundant_experts) of the sessions that run it.
struct EplbSpec {
  bool given = false;
  std::int64_t redundant_experts = 0;
};

// serving.disaggregated: a prefill pool and a decode pool, rate-matched (docs/physics.md §12.4).
struct DisaggregationSpec {
  bool enabled = false;  // the block is present
  TransferOverlap overlap = TransferOverlap::layerwise;
  std::int64_t max_replicas = 8;               // x and y (instances per pool) at most
  std::vector<std::int64_t> prefill_batch{1};  // prompts per prefill iteration
  bool has_transfer = false;                   // serving.disaggregated.transfer given
  TransferLink transfer;                       // it (replaces the machine level's link)
  PoolParallelism prefill, decode;             // each pool's configurations (empty: the sweep's)
  EplbSpec prefill_eplb, decode_eplb;          // each pool's balancer (not given: serving.eplb)
};

// serving.prefill_machine / serving.decode_machine: a pool's own machine (read as `machine:` is,
// overrides applied); not given: the pool runs on the scenario's machine.
struct PoolMachine {
  bool given = false;
  std::string file;  // path, or "inline"
  MachineSpec machine;
  std::vector<MachineBlock> blocks;  // its `plugins:` / `efficiency:` blocks
  SourceLocation where;              // the key, for messages
};

struct ServingSpec {
  ServingSlo slo;
  RequestsSpec requests;  // serving.requests: given, `serve` simulates requests (docs/physics.md §12.5)
  PrefixCacheSpec prefix_cache;  // serving.prefix_cache (docs/physics.md §12.7)
  SpeculativeSpec speculative;   // serving.speculative (docs/physics.md §12.8)
  EplbSpec eplb;                 // serving.eplb (docs/physics.md §4 "MoE load")
  DisaggregationSpec disaggregated;
  PoolMachine prefill_machine, decode_machine;
  // The pools run on machines of their own (either key given): they share no machine level, so
  // serving.disaggregated.transfer is the link (docs/physics.md §12.4).
  bool separate_machines() const { return prefill_machine.given || decode_machine.given; }
  // The balancer a pool runs: its own eplb, else serving.eplb (`prefill` false: the decode pool).
  const EplbSpec& pool_eplb(bool prefill) const {
    const EplbSpec& own = prefill ? disaggregated.prefill_eplb : disaggregated.decode_eplb;
    return own.given ? own : eplb;
  }
  std::int64_t max_pes = 0;  // PEs of one configuration at most (all replicas); 0 = no budget
  SourceLocation where;      // the `serving:` block, for messages
};

struct ReportSpec {
  std::int64_t top = 20;
  std::string csv;  // "" = none; relative paths resolved against the working directory
  std::string json;
  // report.scopes: the scopes `run` studies for its report, which flips between them
  // (docs/report.md); empty = the scenario's scope alone.
  std::vector<Scope> scopes;
};

struct Scenario {
  std::string name;
  std::string file;        // the scenario file's path ("" for built-in)
  std::string model_file;  // where the model came from (path, or "inline")
  std::string machine_file;
  ModelSpec model;      // scenario `dtype:` already applied
  MachineSpec machine;  // overrides already applied; `efficiency` not yet validated
  // The machine's per-plugin blocks as written (`plugins:`; `efficiency:` is calibrated's),
  // each validated against its plugin's machine schema by the host when that plugin runs.
  std::vector<MachineBlock> machine_blocks;
  Workload workload;          // serve: input/output set, batch = 1, chunk = 0 (swept in sweep.serving)
  SourceLocation mode_where;  // `workload.mode`'s value, for messages (the file alone when unknown)
  ServingSpec serving;
  // `framework: NAME[@VERSION]` (docs/frameworks.md): the profile, and what it dropped from the
  // sweep when the scenario loaded (configurations are dropped by the studies).
  ServingStackChoice framework;
  std::vector<DroppedValues> stack_dropped;
  // The KV capacity rule of the framework with the scenario's `engine:` knobs (rule none without
  // a framework, or for a version whose profile gives no `kv_cache:`).
  EngineKv engine_kv;
  // The MoE exchange kernel per phase (EvalContext::moe_a2a's order) the framework's flags select on
  // an aggregated server
  // (scenario/serving_stacks/stack_moe_a2a.hpp); DeepEP's auto mode without a framework.
  std::array<MoeA2a, 4> moe_a2a = EvalContext{}.moe_a2a;
  // ... and of a disaggregated prefill pool and decode pool (their own sessions when they differ).
  std::array<std::array<MoeA2a, 4>, 2> moe_a2a_pools{EvalContext{}.moe_a2a, EvalContext{}.moe_a2a};
  std::string model_hf_id;  // model.hf_id ("" when absent): the repository a launch line names
  PluginChoices plugins;
  Sweep sweep;
  ReportSpec report;
};

}  // namespace tessera
