// The keys of every mapping of the model, machine and scenario schemas, and the file header.
#include <map>

#include "core/nearest_name.hpp"
#include "scenario/schema_util.hpp"
#include "scenario/schemas.hpp"

namespace tessera::loader {

namespace {

using Keys = std::vector<std::string>;

const std::map<std::string, Keys>& key_table() {
  static const Keys kModel = {
      "schema_version",  "kind",     "name",     "description", "layers",   "hidden",
      "heads",           "kv_heads", "head_dim", "ffn",         "ffn_kind", "vocab",
      "tied_embeddings", "bias",     "dtype",    "moe",         "mla",      "parallel_block"};
  static const Keys kDtype = {"weights",        "attention_weights", "ffn_weights",
                              "expert_weights", "lm_head_weights",   "kv",
                              "attention",      "activations",       "dispatch"};
  static const Keys kMachine = {"schema_version", "kind",           "name",   "description", "pe",
                                "levels",         "stage_overhead", "energy", "efficiency"};
  static const Keys kProtocols = {"ll", "ll128", "simple"};
  static const Keys kCost = {"base", "hop", "bw_factor"};
  static const Keys kScenario = {"schema_version", "kind",      "name",  "description", "model",
                                 "machine",        "overrides", "dtype", "workload",    "scope",
                                 "plugins",        "sweep",     "report"};
  static const std::map<std::string, Keys> t = {
      {"", kScenario},
      {"model", kModel},
      {"model.bias", {"attention", "mlp"}},
      {"model.dtype", kDtype},
      {"model.moe", {"experts", "top_k", "expert_ffn", "shared_experts", "dense_layers"}},
      {"model.mla", {"kv_lora_rank", "q_lora_rank", "rope_dim", "nope_dim", "v_head_dim"}},
      {"machine", kMachine},
      {"machine.pe", {"name", "flops", "hbm"}},
      {"machine.pe.flops", dtype_names()},
      {"machine.pe.hbm", {"capacity", "bandwidth", "usable"}},
      {"machine.levels.*",
       {"name", "fanout", "link_bw", "latency", "topology", "uplink_bw", "dims", "collectives"}},
      {"machine.levels.*.collectives",
       {"fabric", "algorithm", "in_network", "link_efficiency", "ring", "tree", "one_shot", "two_shot",
        "direct"}},
      {"machine.levels.*.collectives.ring", kProtocols},
      {"machine.levels.*.collectives.tree", kProtocols},
      {"machine.levels.*.collectives.ring.ll", kCost},
      {"machine.levels.*.collectives.ring.ll128", kCost},
      {"machine.levels.*.collectives.ring.simple", kCost},
      {"machine.levels.*.collectives.tree.ll", kCost},
      {"machine.levels.*.collectives.tree.ll128", kCost},
      {"machine.levels.*.collectives.tree.simple", kCost},
      {"machine.levels.*.collectives.one_shot", kCost},
      {"machine.levels.*.collectives.two_shot", kCost},
      {"machine.levels.*.collectives.in_network", kCost},
      {"machine.levels.*.collectives.direct", kCost},
      {"machine.energy", {"flop", "hbm_byte", "link_byte"}},
      {"dtype", kDtype},
      {"workload", {"mode", "context", "batch", "chunk"}},
      {"plugins", {"latency", "memory", "search", "objectives"}},
      {"sweep", {"parallelism", "hardware"}},
      {"sweep.parallelism",
       {"cp", "tp", "pp", "dp", "ep", "kv_shard_mode", "ffn_shard_scope", "tp_placement", "cp_placement",
        "cp_ring_variant"}},
      {"report", {"top", "csv", "json"}},
  };
  return t;
}

}  // namespace

const std::vector<std::string>* schema_keys(const std::string& canonical_path) {
  const auto& t = key_table();
  const auto it = t.find(canonical_path);
  return it == t.end() ? nullptr : &it->second;
}

bool schema_free_keys(const std::string& canonical_path) {
  return canonical_path == "machine.efficiency" || canonical_path == "plugins.latency" ||
         canonical_path == "plugins.memory" || canonical_path == "plugins.search" ||
         canonical_path == "plugins.objectives" || canonical_path == "sweep.hardware" ||
         canonical_path == "overrides";
}

bool check_header(const YNode& root, const std::string& expected_kind, std::string* kind_out, Diags& d) {
  static const Keys kKinds = {"model", "machine", "scenario"};
  const std::string expected_text =
      expected_kind.empty() ? std::string("model, machine or scenario") : expected_kind;
  if (!root.is_mapping()) {
    d.error(root.where,
            "expected a mapping starting with `schema_version: 1` and `kind: " +
                (expected_kind.empty() ? std::string("model | machine | scenario") : expected_kind) +
                "`, found " + describe(root));
    return false;
  }
  bool ok = true;
  const YNode* version = root.find("schema_version");
  if (!version) {
    d.error(root.where,
            "missing required key 'schema_version' (every Tessera file starts with "
            "`schema_version: 1`)");
    ok = false;
  } else if (!version->is_scalar() || version->value != "1") {
    d.error(version->where,
            "schema_version: expected 1 (the only version this Tessera reads), found " + describe(*version));
    ok = false;
  }
  const YNode* kind = root.find("kind");
  if (!kind) {
    d.error(root.where, "missing required key 'kind' (expected `kind: " + expected_text + "`)");
    return false;
  }
  if (!kind->is_scalar()) {
    d.error(kind->where, "kind: expected " + expected_text + ", found " + describe(*kind));
    return false;
  }
  if (expected_kind.empty()) {
    bool known = false;
    for (const auto& k : kKinds) known = known || k == kind->value;
    if (!known) {
      d.error(kind->where, "kind: expected model, machine or scenario, found " + describe(*kind) +
                               did_you_mean(kind->value, kKinds));
      return false;
    }
  } else if (kind->value != expected_kind) {
    bool known = false;
    for (const auto& k : kKinds) known = known || k == kind->value;
    d.error(kind->where, "kind: expected " + expected_kind + ", found " + describe(*kind) +
                             (known ? " (this file describes a " + kind->value + ")"
                                    : did_you_mean(kind->value, Keys{expected_kind})));
    return false;
  }
  if (kind_out) *kind_out = kind->value;
  return ok;
}

}  // namespace tessera::loader
