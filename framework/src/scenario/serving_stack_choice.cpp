// A scenario's `framework:` and `engine:` (scenario/serving_stack_choice.hpp).
#include "scenario/serving_stack_choice.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "core/text/nearest_name.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/loader_errors.hpp"
#include "scenario/readers/schema_util.hpp"
#include "scenario/serving_stacks/stack_moe_a2a.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"
#include "scenario/serving_stacks/stack_restriction.hpp"

namespace fs = std::filesystem;

namespace tessera::loader {

namespace {

// The framework's KV rule (docs/frameworks.md "KV capacity"): the version's defaults, then the
// scenario's `engine:` keys, each checked (a fraction in (0, 1], a block of at least 1 token, a
// knob of another framework refused naming it).
void resolve_engine_kv(const YNode* engine, Scenario& s) {
  Diags d;
  const ServingStackVersion& v = s.framework.version();
  EngineKv& e = s.engine_kv;
  e = engine_kv_defaults(s.framework.profile, v);
  if (!engine) return;
  if (!engine->is_mapping()) {
    d.error(engine->where,
            "engine: expected a mapping of KV-cache knobs, found " + loader::describe(*engine));
    throw_errors(d);
  }
  if (!e.active()) {
    d.error(engine->where, "engine: " + e.label + " (" + s.framework.label() +
                               ") gives no KV-cache rule in " + s.framework.catalog_file +
                               " (its `kv_cache:`)");
    throw_errors(d);
  }
  const auto& mine = kv_rule_knobs(e.rule);
  for (const auto& entry : engine->entries) {
    const std::string path = "engine." + entry.key;
    if (std::find(mine.begin(), mine.end(), entry.key) == mine.end()) {
      std::string owner;
      for (KvRule r : {KvRule::vllm, KvRule::sglang, KvRule::trtllm}) {
        const auto& k = kv_rule_knobs(r);
        if (r != e.rule && std::find(k.begin(), k.end(), entry.key) != k.end()) owner = kv_rule_name(r);
      }
      std::string list;
      for (const auto& k : mine) list += (list.empty() ? "" : ", ") + k;
      d.error(entry.key_where, path + ": " +
                                   (owner.empty() ? std::string("unknown knob")
                                                  : "a knob of the " + owner + " rule, not of " + e.label) +
                                   " (framework: " + s.framework.label() + "); expected one of " + list +
                                   did_you_mean(entry.key, mine));
      continue;
    }
    const YNode& n = entry.value;
    if (entry.key == "max_num_seqs") {
      // In a study the engine's max sequences is each point's batch (--deploy writes it).
      d.error(entry.key_where, path +
                                   ": set by each serving point's batch (sweep.serving.batch), which the "
                                   "launch script passes as --max-num-seqs; the knob is the default for "
                                   "a measured row that states no batch");
      continue;
    }
    std::optional<double> x;
    if (kv_knob_is_bytes(entry.key)) {
      // gpu_memory must be positive; a profile term may be 0 (not subtracted)
      x = loader::read_quantity(n, path, Dimension::bytes, d, entry.key != "gpu_memory");
    } else if (entry.key == "block_size" || entry.key == "page_size" || entry.key == "tokens_per_block" ||
               entry.key == "max_tokens" || entry.key == "max_num_seqs") {
      if (auto i = loader::read_int(n, path, d, entry.key == "max_tokens" ? 0 : 1))
        x = static_cast<double>(*i);
    } else {
      x = loader::read_real(n, path, d);
    }
    if (!x) continue;
    if (const std::string p = kv_knob_problem(entry.key, *x); !p.empty()) {
      d.error(n.where, path + ": expected " + p + ", found " + loader::describe(n));
      continue;
    }
    apply_kv_knob(e, entry.key, *x);
  }
  throw_if_any(d);
}

}  // namespace

void choose_serving_stack(const YNode& n, const YNode* engine, const std::vector<std::string>& roots,
                          const ModelSpec& model, Scenario& s) {
  Diags d;
  if (!n.is_scalar() || n.value.empty()) {
    d.error(n.where,
            "framework: expected NAME or NAME@VERSION (e.g. vllm, sglang@0.5.9), found " + describe(n));
    throw_errors(d);
  }
  std::string file = default_serving_stacks_path(roots.back());
  for (const auto& r : roots) {
    std::error_code ec;
    if (fs::is_regular_file(default_serving_stacks_path(r), ec)) {
      file = default_serving_stacks_path(r);
      break;
    }
  }
  const ServingStackCatalog catalog = load_serving_stack_catalog(file);
  s.framework = resolve_serving_stack(catalog, n.value, n.where);
  s.stack_dropped = restrict_sweep(s.sweep, s.framework, model);
  if (s.serving.disaggregated.enabled && !s.framework.version().disaggregated) {
    d.error(n.where, "framework: " + s.framework.profile.title + " " + s.framework.version().version + " (" +
                         s.framework.label() +
                         ") has no disaggregated prefill/decode serving, which "
                         "serving.disaggregated asks for (" +
                         file + ")");
    throw_errors(d);
  }
  resolve_engine_kv(engine, s);
  // The kernels of an aggregated server, and of each disaggregated pool (pool_sessions).
  using Role = DeployPoint::Role;
  const ServingStackVersion& v = s.framework.version();
  s.moe_a2a_pools = {stack_moe_a2a(s.framework.profile, v, model, Role::prefill, s.moe_a2a),
                     stack_moe_a2a(s.framework.profile, v, model, Role::decode, s.moe_a2a)};
  s.moe_a2a = stack_moe_a2a(s.framework.profile, v, model, Role::aggregated, s.moe_a2a);
  if (s.workload.mode != Mode::serve || s.plugins.serving.name != plugin_defaults::kServing) return;
  const std::string& mixing = s.framework.version().mixing;
  for (const RawParam& p : s.plugins.serving.params)
    if (p.key == "mixing") {
      if (p.text != mixing) {
        d.error(p.where, "plugins.serving.mixing: " + s.framework.profile.title + " " +
                             s.framework.version().version + " runs `" + mixing +
                             "` iterations (framework: " + s.framework.label() + "), found " + p.text);
        throw_errors(d);
      }
      return;
    }
  s.plugins.serving.params.push_back(RawParam{"mixing", mixing, {}, false, n.where});
}

}  // namespace tessera::loader
