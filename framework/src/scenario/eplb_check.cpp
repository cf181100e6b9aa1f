// serving.eplb across the scenario (eplb_check.hpp).
#include "scenario/eplb_check.hpp"

#include <string>
#include <vector>

#include "scenario/loader_errors.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

namespace tessera::loader {

namespace {

// Where the block at `path` (serving.eplb, serving.disaggregated.prefill.eplb, ...) is written.
SourceLocation eplb_where(const YNode& tree, const std::vector<const char*>& path,
                          const SourceLocation& fallback) {
  const YNode* n = &tree;
  const YEntry* last = nullptr;
  for (const char* k : path) {
    if (!n || !n->is_mapping()) return fallback;
    last = n->find_entry(k);
    n = n->find(k);
  }
  return last ? last->key_where : fallback;
}

bool stack_writes_eplb(const ServingStackVersion& v) {
  for (const ServingStackFlag& f : v.flags)
    for (FlagCondition c : f.when)
      if (c == FlagCondition::eplb) return true;
  return false;
}

// One balancer (`label` its key) against the ep values it meets.
void check_one(const Scenario& s, const ModelSpec& model, const std::string& label, const SourceLocation& at,
               const EplbSpec& e, const std::vector<std::int32_t>& eps, Diags& d) {
  if (!model.has_moe) {
    d.error(at, label + ": model " + model.name + " has no experts to balance (a dense model)");
    return;
  }
  if (s.framework.set && !stack_writes_eplb(s.framework.version()))
    d.error(at, label + ": " + s.framework.profile.title + " " + s.framework.version().version +
                    " has no expert-parallel load balancer Tessera can deploy (docs/frameworks.md \"EPLB\")");
  const std::int64_t slots = model.moe.experts + e.redundant_experts;
  for (std::int32_t ep : eps) {
    if (ep <= 1)
      d.error(at, label + ": the balancer needs expert parallelism, ep > 1; the sweep gives this pool ep " +
                      std::to_string(ep) +
                      " (list only ep > 1 in sweep.parallelism.ep or the pool's parallelism)");
    else if (slots % ep != 0)
      d.error(at, label + ".redundant_experts: experts + redundant = " + std::to_string(model.moe.experts) +
                      " + " + std::to_string(e.redundant_experts) + " = " + std::to_string(slots) +
                      " does not divide over ep " + std::to_string(ep) +
                      " (vLLM, SGLang and TensorRT-LLM give every EP rank (E + R)/ep experts)");
  }
}

}  // namespace

void apply_eplb(const EplbSpec& spec, ModelSpec& model) {
  model.moe.eplb = spec.given;
  model.moe.redundant_experts = spec.given ? spec.redundant_experts : 0;
}

void check_eplb(const YNode& tree, const Scenario& s, ModelSpec& model) {
  const ServingSpec& sv = s.serving;
  const DisaggregationSpec& dg = sv.disaggregated;
  Diags d;
  const SourceLocation top = eplb_where(tree, {"serving", "eplb"}, sv.where);
  const auto pool_eps = [&](const PoolParallelism& p) { return p.ep.empty() ? s.sweep.ep : p.ep; };
  if (!dg.enabled) {
    if (sv.eplb.given) check_one(s, model, "serving.eplb", top, sv.eplb, s.sweep.ep, d);
  } else {
    const struct {
      const char* pool;
      const EplbSpec& own;
      const PoolParallelism& par;
    } pools[] = {{"prefill", dg.prefill_eplb, dg.prefill}, {"decode", dg.decode_eplb, dg.decode}};
    for (const auto& p : pools) {
      const bool own = p.own.given;
      if (!own && !sv.eplb.given) continue;
      const std::string label =
          own ? std::string("serving.disaggregated.") + p.pool + ".eplb" : "serving.eplb";
      const SourceLocation at =
          own ? eplb_where(tree, {"serving", "disaggregated", p.pool, "eplb"}, sv.where) : top;
      check_one(s, model, label, at, own ? p.own : sv.eplb, pool_eps(p.par), d);
    }
  }
  if (!d.empty()) throw InputErrors(d.take());
  apply_eplb(sv.eplb, model);
}

}  // namespace tessera::loader
