// A framework version's scheduling rules (stack_scheduler.hpp).
#include "scenario/serving_stacks/stack_scheduler.hpp"

#include <cstdio>
#include <optional>
#include <vector>

#include "scenario/readers/schema_util.hpp"
#include "scenario/serving_stacks/stacks_yaml.hpp"

namespace tessera {

namespace requests {

const char* step_order_name(StepOrder o) {
  return o == StepOrder::prefill_first ? "prefill_first" : "running_first";
}
const char* budget_counts_name(BudgetCounts b) { return b == BudgetCounts::prefill ? "prefill" : "all"; }
const char* victim_name(Victim v) { return v == Victim::fewest_output ? "fewest_output" : "newest"; }
const char* admission_name(Admission a) {
  return a == Admission::reserve_output ? "reserve_output" : "blocks";
}

}  // namespace requests

namespace stacks_yaml {

namespace {

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// One rule: {value: V, source: TEXT}; the value node, its source checked present.
const YNode* rule_value(const YNode& n, const std::string& path, const char* key, bool required, Diags& d) {
  const YNode* r = loader::member(n, path, key, required, "{value, source}", d);
  if (!r) return nullptr;
  const std::string p = loader::join_path(path, key);
  if (!loader::expect_mapping(*r, p, d)) return nullptr;
  loader::check_keys(*r, p, {"value", "source"}, d);
  (void)text_of(*r, p, "source", true, d);
  return loader::member(*r, p, "value", true, "a value", d);
}

template <class E>
void read_choice_rule(const YNode& n, const std::string& path, const char* key,
                      const std::vector<std::string>& names, E& out, Diags& d) {
  if (const YNode* v = rule_value(n, path, key, true, d))
    if (auto i = pick(*v, loader::join_path(path, key) + ".value", names, d)) out = static_cast<E>(*i);
}

void read_number_rule(const YNode& n, const std::string& path, const char* key, double lo, double hi,
                      double& out, Diags& d) {
  const YNode* v = rule_value(n, path, key, true, d);
  if (!v) return;
  const std::string p = loader::join_path(path, key) + ".value";
  if (auto x = loader::read_real(*v, p, d)) {
    if (*x < lo || *x > hi)
      d.error(v->where, p + ": expected a number in [" + number_text(lo) + ", " + number_text(hi) +
                            "], found " + v->value);
    else
      out = *x;
  }
}

}  // namespace

static void read_rules(const YNode& n, const std::string& path, requests::SchedulerRules& r, Diags& d) {
  if (!loader::expect_mapping(n, path, d)) return;
  loader::check_keys(n, path,
                     {"order", "budget_counts", "victim", "admission", "new_token_ratio", "ratio_min_factor",
                      "decay_steps", "retract_steps", "clip_output"},
                     d);
  read_choice_rule(n, path, "order", {"running_first", "prefill_first"}, r.order, d);
  read_choice_rule(n, path, "budget_counts", {"all", "prefill"}, r.budget, d);
  read_choice_rule(n, path, "victim", {"newest", "fewest_output"}, r.victim, d);
  read_choice_rule(n, path, "admission", {"blocks", "reserve_output"}, r.admission, d);
  if (r.order == requests::StepOrder::prefill_first && r.mixed)
    d.error(n.where, path + ".order: prefill_first runs prefill batches alone: expected mixing: alternating");
  if (r.order == requests::StepOrder::prefill_first && r.budget == requests::BudgetCounts::all)
    d.error(n.where, path +
                         ".budget_counts: a prefill_first engine's decode batch has no token limit: expected "
                         "prefill");
  const char* reserve_keys[] = {"new_token_ratio", "ratio_min_factor", "decay_steps", "retract_steps",
                                "clip_output"};
  if (r.admission != requests::Admission::reserve_output) {
    for (const char* k : reserve_keys)
      if (const loader::YEntry* e = n.find_entry(k))
        d.error(e->key_where, loader::join_path(path, k) + ": only with admission: reserve_output");
    return;
  }
  read_number_rule(n, path, "new_token_ratio", 0, 1, r.ratio_init, d);
  read_number_rule(n, path, "ratio_min_factor", 0, 1, r.ratio_min_factor, d);
  read_number_rule(n, path, "decay_steps", 1, 1e9, r.decay_steps, d);
  read_number_rule(n, path, "retract_steps", 0, 1e9, r.retract_steps, d);
  double clip = static_cast<double>(r.clip_output);
  read_number_rule(n, path, "clip_output", 1, 1e12, clip, d);
  r.clip_output = static_cast<std::int64_t>(clip);
}

void read_scheduler(const YNode& version, const std::string& path, ServingStackVersion& v, Diags& d) {
  requests::SchedulerRules& r = v.scheduler;
  r.mixed = v.mixing != "alternating";
  if (const YNode* block = version.find("scheduler")) read_rules(*block, path + ".scheduler", r, d);
  if (!r.mixed && r.order == requests::StepOrder::running_first)
    d.error(version.where, path +
                               ".mixing: alternating batches are a prefill_first engine's: expected "
                               "scheduler.order: prefill_first");
}

}  // namespace stacks_yaml

}  // namespace tessera
