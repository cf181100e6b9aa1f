// The rows of the result schema, kind by kind (report/schema_docs/result_rows.hpp).
#include "report/schema_docs/result_rows.hpp"

#include <string>
#include <vector>

namespace tessera {
namespace result_schema_rows {

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
                     {"parallelism[].values[].reason", S},
                     // a serve scenario's (mode: serve): the best tokens/s/PE within the SLO
                     {"mode", S},
                     {"best_tokens_per_s_per_pe", N},
                     {"parallelism[].values[].tokens_per_s_per_pe", N}});
  knobs(r, "best");
  tornado_rows(r, "hardware");
  for (const char* k : {"tokens_per_s_per_pe_minus_fixed", "tokens_per_s_per_pe_plus_fixed",
                        "tokens_per_s_per_pe_minus_reoptimised", "tokens_per_s_per_pe_plus_reoptimised"})
    r.push_back({std::string("hardware[].") + k, N});
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

std::vector<Rule> result_rules(ResultKind kind) {
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
  return rules;
}

}  // namespace result_schema_rows
}  // namespace tessera
