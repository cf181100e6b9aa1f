// The result schema as data: per kind, "path: types" rows read from the chart builders
// (vega_specs.cpp, *_charts.cpp, vega_marks.cpp) and the page header (html_report.cpp). A path's
// `[]` is each item of a list, `*` each member of an object. The rows become a tree that the
// document is walked along once, so the check is linear in the document.
#include "report/schema_docs/result_schema.hpp"

#include <array>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "core/text/safe_text.hpp"
#include "report/charts/vega_specs.hpp"

namespace tessera {
// Named, not anonymous: the unity build puts other files' helpers beside these.
namespace result_schema_rows {

using loader::JNode;

enum Type : unsigned { kNumber = 1, kString = 2, kBoolean = 4, kObject = 8, kList = 16 };
constexpr unsigned N = kNumber, S = kString, B = kBoolean, O = kObject, L = kList;

struct Rule {
  std::string path;
  unsigned types;
  bool required = false;  // absent or null breaks the page (its script reads inside it)
};

struct SchemaNode {
  unsigned types = 0;  // 0: only implied by its children
  bool required = false;
  std::map<std::string, SchemaNode, std::less<>> members;
  std::unique_ptr<SchemaNode> each_member;  // `*`
  std::unique_ptr<SchemaNode> each_item;    // `[]`

  SchemaNode& member(std::string_view key) {
    if (types == 0) types = O;
    if (key == "*") {
      if (!each_member) each_member = std::make_unique<SchemaNode>();
      return *each_member;
    }
    return members.try_emplace(std::string(key)).first->second;
  }
  SchemaNode& item() {
    if (types == 0) types = L;
    if (!each_item) each_item = std::make_unique<SchemaNode>();
    return *each_item;
  }
};

void add_rule(SchemaNode& root, const Rule& r) {
  SchemaNode* n = &root;
  std::string_view rest = r.path;
  while (!rest.empty()) {
    std::string_view seg = rest.substr(0, rest.find('.'));
    rest = seg.size() < rest.size() ? rest.substr(seg.size() + 1) : std::string_view();
    std::size_t lists = 0;
    while (seg.size() >= 2 && seg.substr(seg.size() - 2) == "[]") {
      seg.remove_suffix(2);
      ++lists;
    }
    if (!seg.empty()) n = &n->member(seg);
    for (; lists > 0; --lists) n = &n->item();
  }
  n->types = r.types;
  n->required = r.required;
}

// ---- the rows ------------------------------------------------------------------------------

// The knobs of a configuration (vega_json.hpp config_label, the scatters' colour knobs).
void knobs(std::vector<Rule>& rules, const std::string& at) {
  const std::string p = at.empty() ? "" : at + ".";
  for (const char* k : {"cp", "tp", "pp", "dp", "ep"}) rules.push_back({p + k, N});
  for (const char* k : {"kv_shard_mode", "ffn_shard_scope", "tp_placement", "cp_placement"})
    rules.push_back({p + k, S});
}

// A list of stages as run's and serve's `breakdowns` hold them (vega_marks.cpp add_breakdown_rows).
void breakdown_stages(std::vector<Rule>& rules, const std::string& at) {
  rules.push_back({at, L});
  rules.push_back({at + "[]", O});
  rules.push_back({at + "[].name", S});
  for (const char* k : {"count", "compute_s", "memory_s", "communication_s", "overhead_s"})
    rules.push_back({at + "[]." + k, N});
}

// The rows of a hardware tornado (sensitivity's `hardware`, explore's `hardware_sensitivity`).
void tornado_rows(std::vector<Rule>& rules, const std::string& at) {
  rules.push_back({at, L});
  rules.push_back({at + "[]", O});
  for (const char* k : {"knob", "label", "note"}) rules.push_back({at + "[]." + k, S});
  for (const char* k : {"rank", "elasticity_fixed", "elasticity_reoptimised", "latency_minus_fixed_s",
                        "latency_plus_fixed_s", "latency_minus_reoptimised_s", "latency_plus_reoptimised_s"})
    rules.push_back({at + "[]." + k, N});
}

// The page header of every kind (html_report.cpp) and the fields that say what a result is.
std::vector<Rule> header_rules() {
  std::vector<Rule> r = {
      {"scenario", S},
      {"model", S | O},
      {"model.name", S},
      {"machine", S | O},
      {"machine.name", S},
      {"machine.pe", S},
      {"machine.pes", N},
      {"plugins", O},
      {"plugins.serving", O},
      {"plugins.serving.name", S},
      {"plugins.latency", S},
      {"plugins.memory", O},
      {"plugins.memory.name", S},
      {"plugins.objectives", L},
      {"plugins.objectives[]", O},
      {"plugins.objectives[].name", S},
      {"models", L},
      {"models[]", S | O},
      {"models[].latency", S},
      {"search", S},
      {"latency_model", S},
      {"objectives", L},
      {"objectives[]", O},
      {"objectives[].name", S},
      {"objectives[].key", S},
      {"version", S},
      {"command", S},
      // Where the result came from (studies/json/provenance.hpp); absent in results saved before it.
      {"provenance", O},
      {"provenance.tessera", O},
      {"provenance.tessera.version", S},
      {"provenance.tessera.commit", S},
      {"provenance.tessera.build_type", S},
      {"provenance.tessera.sanitizers", S},
      {"provenance.plugins", L},
      {"provenance.plugins[]", O},
      {"provenance.plugins[].id", S},
      {"provenance.plugins[].version", S},
      {"provenance.plugins[].sha256", S},
      {"scope", S},
      {"by_scope", O},
      {"by_scope.*", O},  // each checked as a document of its own kind
      {"workload", O},
      {"workload.mode", S},
      {"band", O},
  };
  for (const char* k : {"status", "reason", "family", "framework", "fold", "note"})
    r.push_back({std::string("band.") + k, S});
  for (const char* k : {"latency_low_rel", "latency_high_rel", "throughput_low_rel", "throughput_high_rel",
                        "rows", "sources"})
    r.push_back({std::string("band.") + k, N});
  return r;
}

void run_rules(std::vector<Rule>& r) {
  r.insert(r.end(), {{"points", L},
                     {"points[]", O},
                     {"points[].id", N | S},
                     {"points[].config", S},
                     {"points[].objectives", O, true},  // the scatter reads datum.objectives[...]
                     {"points[].objectives.*", N},
                     {"points[].latency_s", N},
                     {"points[].pes", N},
                     {"points[].feasible", B},
                     {"points_total", N},
                     {"points_sampled", B},
                     {"pareto", L},
                     {"pareto[]", O},
                     {"pareto[].id", N | S},
                     {"pareto[].objectives", O, true},
                     {"pareto[].objectives.*", N},
                     {"pareto[].latency_s", N},
                     {"pareto[].pes", N},
                     {"best", O},
                     {"best.id", N | S},
                     {"top", L},
                     {"top[]", O},
                     {"top[].id", N | S},
                     {"breakdowns", O},
                     {"disaggregated", O},
                     {"disaggregated.frontier", L},
                     {"disaggregated.frontier[]", O},
                     {"disaggregated.frontier[].id", N | S}});
  knobs(r, "points[]");
  knobs(r, "pareto[]");
  knobs(r, "best");
  knobs(r, "top[]");
  breakdown_stages(r, "breakdowns.*");
}

// A serving point as the serve scatter draws it (vega_specs.cpp serve_row).
void serve_point(std::vector<Rule>& r, const std::string& at) {
  r.push_back({at, L});
  r.push_back({at + "[]", O});
  r.push_back({at + "[].id", N | S});
  r.push_back({at + "[].config", S});
  r.push_back({at + "[].objectives", O});
  r.push_back({at + "[].objectives.*", N});
  r.push_back({at + "[].feasible", B});
  for (const char* k : {"batch", "tokens_per_s_per_user", "tokens_per_s_per_pe", "ttft_s", "tpot_s", "pes"})
    r.push_back({at + "[]." + k, N});
  knobs(r, at + "[]");
}

void serve_rules(std::vector<Rule>& r) {
  serve_point(r, "points");
  serve_point(r, "frontier");
  r.insert(r.end(), {{"points_total", N},
                     {"points_sampled", B},
                     {"slo", O},
                     {"slo.tpot_s", N},
                     {"slo.min_tokens_per_s_per_user", N},
                     {"best", O},
                     {"best.id", N | S},
                     {"best.batch", N},
                     {"top", L},
                     {"top[]", O},
                     {"top[].id", N | S},
                     {"top[].batch", N},
                     {"breakdowns", O},
                     {"breakdowns.*", O},
                     {"disaggregated", O},
                     {"disaggregated.frontier", L},
                     {"disaggregated.frontier[]", O},
                     {"disaggregated.frontier[].id", N | S},
                     {"disaggregated.breakdowns", O},
                     {"disaggregated.breakdowns.*", O}});
  knobs(r, "best");
  knobs(r, "top[]");
  for (const char* k : {"tokens_per_s_per_user", "tokens_per_s_per_pe", "ttft_s", "tpot_s", "pes"})
    r.push_back({std::string("disaggregated.frontier[].") + k, N});
  // --simulate-top / serving.requests: what capacity_charts.cpp reads.
  r.insert(r.end(), {{"capacity", O},
                     {"capacity.load", S},
                     {"capacity.simulated", N},
                     {"capacity.settings", O},
                     {"capacity.settings.min_requests", N},
                     {"capacity.settings.rank_shift_flag", N},
                     {"capacity.targets", L},
                     {"capacity.targets[]", O},
                     {"capacity.targets[].metric", S},
                     {"capacity.targets[].statistic", S},
                     {"capacity.targets[].limit_s", N},
                     {"capacity.finalists", L},
                     {"capacity.finalists[]", O},
                     {"capacity.finalists[].config", O},
                     {"capacity.finalists[].batch", N},
                     {"capacity.finalists[].token_budget", N},
                     {"capacity.finalists[].simulated_rank", N},
                     {"capacity.finalists[].analytical_rank", N},
                     {"capacity.finalists[].moved", B},
                     {"capacity.finalists[].tokens_per_s_per_pe", N},
                     {"capacity.finalists[].analytical", O},
                     {"capacity.finalists[].analytical.tokens_per_s_per_pe", N},
                     {"capacity.finalists[].capacity", O},
                     {"capacity.finalists[].capacity.probes", L},
                     {"capacity.finalists[].capacity.probes[]", O},
                     {"capacity.finalists[].capacity.probes[].met", B}});
  for (const char* k : {"rate_per_s", "clients", "ttft_p99_s", "tpot_p99_s"})
    r.push_back({std::string("capacity.finalists[].capacity.probes[].") + k, N});
  knobs(r, "capacity.finalists[].config");
  for (const char* pool : {"prefill", "decode"}) {
    const std::string p = std::string("disaggregated.frontier[].") + pool;
    r.push_back({p, O});
    r.push_back({p + ".instances", N});
    r.push_back({p + ".batch", N});
    r.push_back({p + ".config", O});
    knobs(r, p + ".config");
    breakdown_stages(r, std::string("breakdowns.*.") + pool);
    breakdown_stages(r, std::string("disaggregated.breakdowns.*.") + pool);
  }
}

void explain_rules(std::vector<Rule>& r) {
  r.insert(r.end(), {{"objectives", L | O},  // explain's own: the objectives' values by key (not drawn)
                     {"config", O},
                     {"stages", L},
                     {"stages[]", O},
                     {"stages[].name", S},
                     {"stages[].bound", S},
                     {"totals", O},
                     {"totals.latency_s", N}});
  knobs(r, "config");
  for (const char* k : {"count", "visible_s", "compute_s", "memory_s", "comm_s"})
    r.push_back({std::string("stages[].") + k, N});
}

void sensitivity_rules(std::vector<Rule>& r) {
  r.insert(r.end(), {{"best", O},
                     {"parallelism", L},
                     {"parallelism[]", O},
                     {"parallelism[].knob", S},
                     {"parallelism[].baseline", N | S},
                     {"parallelism[].values", L},
                     {"parallelism[].values[]", O},
                     {"parallelism[].values[].value", N | S},
                     {"parallelism[].values[].feasible", B},
                     {"parallelism[].values[].latency_s", N},
                     {"parallelism[].values[].latency_if_it_fit_s", N},
                     {"parallelism[].values[].reason", S}});
  knobs(r, "best");
  tornado_rows(r, "hardware");
}

void explore_rules(std::vector<Rule>& r, bool serve) {
  r.insert(r.end(), {{"axes", L},
                     {"axes[]", O},
                     {"axes[].path", S},
                     {"axes[].unit", S},
                     {"mode", S},
                     {"points", L},
                     {"points[]", O},
                     {"points[].hardware", O},
                     {"points[].hardware.*", N | S},
                     {"pareto", L}});
  tornado_rows(r, "hardware_sensitivity");
  if (!serve) {
    r.insert(r.end(), {{"points[].best", O},
                       {"points[].best.latency_s", N},
                       {"points[].cost_USD", N},
                       {"points[].pareto", B}});
    knobs(r, "points[].best");
    return;
  }
  r.insert(r.end(), {{"points[].best_tokens_per_s_per_pe", N},
                     {"points[].aggregated", O},
                     {"points[].aggregated.parallelism", S},
                     {"points[].aggregated.batch", N},
                     {"points[].aggregated.machine", S},
                     {"points[].disaggregated", O}});
  for (const char* pool : {"prefill", "decode"}) {
    const std::string p = std::string("points[].disaggregated.") + pool;
    r.push_back({p, O});
    r.push_back({p + ".instances", N});
    r.push_back({p + ".config", O});
    knobs(r, p + ".config");
  }
}

void compare_rules(std::vector<Rule>& r) {
  r.insert(r.end(), {{"models[]", S},
                     {"objective", S},
                     {"stages", L},
                     {"stages[]", O},
                     {"stages[].config", O},
                     {"stages[].optimum_of", L},
                     {"stages[].optimum_of[]", S},
                     {"stages[].by_model", O},
                     {"stages[].by_model.*", O},
                     {"stages[].by_model.*.latency_s", N},
                     {"stages[].by_model.*.rank", N},
                     {"points", L},
                     {"points[]", O},
                     {"points[].rank", O, true},  // the rank chart reads datum.rank[...]
                     {"points[].rank.*", N},
                     {"points[].latency_s", O, true},
                     {"points[].latency_s.*", N},
                     {"points_total", N},
                     {"points_sampled", B},
                     {"kendall", L},
                     {"kendall[]", O},
                     {"kendall[].a", S},
                     {"kendall[].b", S},
                     {"kendall[].tau_b", N},
                     {"kendall[].n", N},
                     {"winner_changes", L},
                     {"winner_changes[]", O},
                     {"winner_changes[].a", S},
                     {"winner_changes[].b", S},
                     {"winner_changes[].best_a", S},
                     {"winner_changes[].best_b", S},
                     {"winner_changes[].differing_knobs", L},
                     {"winner_changes[].differing_knobs[]", S},
                     {"winner_changes[].regret_of_a_best_under_b", N},
                     {"winner_changes[].regret_of_b_best_under_a", N}});
  knobs(r, "stages[].config");
  knobs(r, "points[]");
}

void validate_data_rules(std::vector<Rule>& r) {
  r.insert(r.end(), {{"models[]", O},
                     {"models[].rows", L},
                     {"models[].rows[]", O},
                     {"models[].rows[].id", N | S},
                     {"models[].rows[].source", S},
                     {"models[].rows[].metric", S},
                     {"models[].rows[].unit", S},
                     {"models[].rows[].measured", N},
                     {"models[].rows[].predicted", N},
                     {"models[].rows[].ape", N},
                     {"models[].summary", O},
                     {"models[].summary.by_source", O},
                     {"models[].summary.by_source.*", O},
                     {"models[].summary.by_source.*.label", S}});
}

constexpr std::size_t kKinds = 8;

SchemaNode build_schema(ResultKind kind) {
  std::vector<Rule> rules = header_rules();
  switch (kind) {
    case ResultKind::run:
      run_rules(rules);
      break;
    case ResultKind::serve:
      serve_rules(rules);
      break;
    case ResultKind::explain:
      explain_rules(rules);
      break;
    case ResultKind::sensitivity:
      sensitivity_rules(rules);
      break;
    case ResultKind::explore:
      explore_rules(rules, false);
      break;
    case ResultKind::explore_serve:
      explore_rules(rules, true);
      break;
    case ResultKind::compare:
      compare_rules(rules);
      break;
    case ResultKind::validate_data:
      validate_data_rules(rules);
      break;
  }
  SchemaNode root;
  root.types = O;
  for (const Rule& r : rules) add_rule(root, r);
  return root;
}

const SchemaNode& schema_of_kind(ResultKind kind) {
  static const std::array<SchemaNode, kKinds> kSchemas = [] {
    std::array<SchemaNode, kKinds> a;
    for (std::size_t k = 0; k < kKinds; ++k) a[k] = build_schema(static_cast<ResultKind>(k));
    return a;
  }();
  return kSchemas[static_cast<std::size_t>(kind)];
}

// ---- the walk ------------------------------------------------------------------------------

unsigned type_of(const JNode& n) {
  switch (n.kind) {
    case JNode::Kind::boolean:
      return kBoolean;
    case JNode::Kind::integer:
    case JNode::Kind::unsigned_integer:
    case JNode::Kind::real:
      return kNumber;
    case JNode::Kind::string:
      return kString;
    case JNode::Kind::array:
      return kList;
    case JNode::Kind::object:
      return kObject;
    case JNode::Kind::null:
      break;
  }
  return 0;
}

std::string expected(unsigned types) {
  std::string s;
  const std::pair<unsigned, const char*> names[] = {{kNumber, "a number"},
                                                    {kString, "a string"},
                                                    {kBoolean, "true or false"},
                                                    {kObject, "an object"},
                                                    {kList, "a list"}};
  for (const auto& [t, name] : names)
    if (types & t) s += (s.empty() ? "" : " or ") + std::string(name);
  return s;
}

// One step of the path to a value: a member's key or an item's index.
struct Step {
  std::string_view key;
  std::size_t index = 0;
  bool is_index = false;
};

class Walk {
 public:
  explicit Walk(loader::Diags& d) : d_(d) {}

  void check(const JNode& n, const SchemaNode& s) {
    if (n.is_null()) {
      if (s.required) report(n.where, "expected " + expected(s.types) + ", found null");
      return;
    }
    if (s.types != 0 && (s.types & type_of(n)) == 0) {
      report(n.where, "expected " + expected(s.types) + ", found " + loader::describe(n));
      return;
    }
    if (n.is_object()) {
      for (const auto& [key, child] : s.members)
        if (child.required && !n.find(key)) {
          path_.push_back(Step{key});
          report(n.where, "missing; expected " + expected(child.types));
          path_.pop_back();
        }
      for (const loader::JMember& m : n.members) {
        const auto it = s.members.find(m.key);
        if (it == s.members.end() && !s.each_member) continue;
        path_.push_back(Step{m.key});
        if (it != s.members.end()) check(m.value, it->second);
        if (s.each_member) check(m.value, *s.each_member);
        path_.pop_back();
      }
    } else if (n.is_array() && s.each_item) {
      for (std::size_t i = 0; i < n.items.size(); ++i) {
        path_.push_back(Step{{}, i, true});
        check(n.items[i], *s.each_item);
        path_.pop_back();
      }
    }
  }

  std::vector<Step>& path() { return path_; }

 private:
  void report(const SourceLocation& where, const std::string& what) {
    if (d_.full()) {  // only counted
      d_.error(where, {});
      return;
    }
    std::string p;
    for (const Step& s : path_) {
      if (s.is_index)
        p += "[" + std::to_string(s.index) + "]";
      else
        p += (p.empty() ? "" : ".") + excerpt(s.key, 60);
    }
    d_.error(where, (p.empty() ? std::string("the result") : p) + ": " + what);
  }

  loader::Diags& d_;
  std::vector<Step> path_;
};

// What result_kind (vega_specs.cpp) reads to tell the kinds apart, copied from the tree: the
// marker fields with their types (lists and objects empty but for workload.mode), so that the
// kind has one definition and the document need not be held twice.
nlohmann::json kind_markers(const JNode& doc) {
  nlohmann::json j = nlohmann::json::object();
  for (const loader::JMember& m : doc.members) {
    const JNode& v = m.value;
    if (m.key == "workload" && v.is_object()) {
      j["workload"] = nlohmann::json::object();
      if (const loader::JMember* mode = v.find("mode"); mode && mode->value.is_string())
        j["workload"]["mode"] = mode->value.text;
      continue;
    }
    if (v.is_string())
      j[m.key] = v.text;
    else if (v.is_array())
      j[m.key] = nlohmann::json::array();
    else if (v.is_object())
      j[m.key] = nlohmann::json::object();
    else if (v.is_number() || v.kind == JNode::Kind::boolean)
      j[m.key] = 0;
  }
  return j;
}

ResultKind kind_of(const JNode& doc) { return result_kind(kind_markers(doc)); }

}  // namespace result_schema_rows

void check_result_fields(const loader::JNode& doc, loader::Diags& d) {
  using namespace result_schema_rows;
  Walk walk(d);
  walk.check(doc, schema_of_kind(kind_of(doc)));
  // Each other scope's document is drawn as a result of its own kind (vega_specs.cpp report_charts).
  const loader::JMember* scopes = doc.find("by_scope");
  if (!scopes || !scopes->value.is_object()) return;
  for (const loader::JMember& m : scopes->value.members) {
    if (!m.value.is_object()) continue;
    walk.path() = {Step{"by_scope"}, Step{m.key}};
    walk.check(m.value, schema_of_kind(kind_of(m.value)));
  }
}

}  // namespace tessera
