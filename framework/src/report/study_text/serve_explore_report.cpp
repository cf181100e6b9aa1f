#include "report/study_text/serve_explore_report.hpp"

#include <cmath>
#include <string>

#include "report/text/text_table.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

std::string pools_text(const DisaggPair& p) {
  return std::to_string(p.x) + "x[" + serve_explore_knobs(p.prefill.config) + "] + " + std::to_string(p.y) +
         "x[" + serve_explore_knobs(p.decode.config) + " B" + std::to_string(p.decode.batch) + "]";
}

}  // namespace

namespace {

std::string serve_axis_value(double v) {
  if (std::isnan(v)) return "—";
  return std::fabs(v) >= 100 ? fixed(v, 1) : fixed(v, 3);
}

// What the table is ranked by, in words.
std::string serve_explore_ranked_by(const ServeExploreResult& r) {
  if (r.axes.empty()) return "the best tokens/s/PE within the SLO";
  const ServeAxis& a = r.axes.front();
  std::string s = "the best " +
                  std::string(r.ranked_disaggregated.front() ? "disaggregated " : "aggregated ") +
                  (a.name == "tokens_per_s_per_pe" ? "tokens/s/PE" : a.name) + " within the SLO";
  if (a.name != "tokens_per_s_per_pe")
    s += std::string(" (") + (a.direction == Direction::maximize ? "most" : "least") + " first)";
  return s;
}

std::string serve_point_hardware_text(const Scenario& scenario, const ServeExplorePoint& p) {
  std::string s;
  const auto& axes = scenario.sweep.hardware;
  for (std::size_t a = 0; a < axes.size(); ++a)
    s += (s.empty() ? "" : ", ") +
         (axes[a].path.rfind("machine.", 0) == 0 ? axes[a].path.substr(8) : axes[a].path) + " " +
         format_quantity(p.values[a], axes[a].dimension);
  return s;
}

// Under the table: the best point by each objective, and which figure a disaggregated study's
// cost column is.
void print_best_by_objective(std::ostream& os, const Scenario& scenario, const ServeExploreResult& r) {
  const bool disaggregated = scenario.serving.disaggregated.enabled;
  for (std::size_t a = 0; a < r.axes.size(); ++a) {
    const std::size_t i = r.rankings[a].empty() ? 0 : r.rankings[a].front();
    const double v = r.rankings[a].empty() ? NAN : r.ranked_values[a][i];
    os << "  best by " << r.axes[a].name << ": ";
    if (std::isnan(v)) {
      os << "no point within the SLO\n";
      continue;
    }
    os << "#" << i + 1 << " (" << serve_point_hardware_text(scenario, r.points[i]) << "), "
       << serve_axis_value(v) << ' ' << r.axes[a].unit
       << (r.ranked_disaggregated[a] ? " (disaggregated)"
           : disaggregated           ? " (aggregated)"
                                     : "")
       << '\n';
  }
  if (!r.disaggregated_cost_note.empty()) os << "  note: " << r.disaggregated_cost_note << '\n';
}

}  // namespace

void print_serve_explore_text(std::ostream& os, const StudyDescription& study,
                              const ServeExploreResult& result) {
  const Scenario& scenario = study.scenario;
  const auto& axes = scenario.sweep.hardware;
  const MachineSpec& m = scenario.machine;
  const bool disagg = scenario.serving.disaggregated.enabled;
  os << "scenario   " << scenario.name << ": " << scenario.model.name << " on " << m.name;
  for (const PoolMachine* pm : {&scenario.serving.prefill_machine, &scenario.serving.decode_machine})
    if (pm->given)
      os << (pm == &scenario.serving.prefill_machine ? ", prefill on " : ", decode on ") << pm->machine.name;
  os << "\nworkload   serve: ISL " << scenario.workload.input << " prompt tokens, OSL "
     << scenario.workload.output << " output tokens per request\n";
  os << "hardware grid: " << result.points.size() << " points over " << axes.size()
     << " axes; the serving study at each, ranked by " << serve_explore_ranked_by(result) << "\n\n";
  // One column per objective beside the aggregated tokens/s/PE (and the pair's cost when priced).
  std::vector<std::size_t> extra;
  for (std::size_t a = 0; a < result.axes.size(); ++a)
    if (result.axes[a].name != "tokens_per_s_per_pe") extra.push_back(a);
  const bool pair_cost = disagg && result.disaggregated_cost_note.empty();
  std::vector<std::string> head{"rank", "#"};
  for (const auto& a : axes) head.push_back(a.path.rfind("machine.", 0) == 0 ? a.path.substr(8) : a.path);
  head.push_back("aggregated tok/s/PE (machine)");
  for (std::size_t a : extra)
    head.push_back((disagg ? "aggregated " : "") + result.axes[a].name + " (" + result.axes[a].unit + ")");
  for (const char* h : {"disaggregated", "gain", "pools"}) head.push_back(h);
  bool cost_axis = false;
  for (const ServeAxis& a : result.axes) cost_axis = cost_axis || a.name == "cost_per_mtok";
  if (pair_cost && cost_axis) head.insert(head.end() - 2, "disagg. cost_per_mtok");
  TextTable t(head);
  std::size_t rank = 0;
  const bool drafts = scenario.serving.speculative.given;
  for (std::size_t i : result.ranking) {
    const ServeExplorePoint& p = result.points[i];
    std::vector<std::string> row{std::to_string(++rank), std::to_string(i + 1)};
    for (std::size_t a = 0; a < axes.size(); ++a)
      row.push_back(format_quantity(p.values[a], axes[a].dimension));
    // With speculative decoding, the best point's draft length k (docs/physics.md §12.8).
    const std::string k = drafts && p.aggregated_best
                              ? ", k " + std::to_string(p.aggregated_best->point.speculative_tokens)
                              : std::string();
    row.push_back(p.aggregated > 0 ? fixed(p.aggregated, 1) + " (" + p.aggregated_machine + k + ")" : "—");
    for (std::size_t a : extra)
      row.push_back(a < p.objective_values.size() ? serve_axis_value(p.objective_values[a]) : "—");
    row.push_back(p.disaggregated ? fixed(p.disaggregated->tokens_per_s_per_pe, 1) : "—");
    if (pair_cost && cost_axis) row.push_back(serve_axis_value(p.disaggregated_cost_per_mtok));
    row.push_back(p.gain > 0 ? fixed(p.gain, 2) + "x" : "—");
    row.push_back(p.disaggregated ? pools_text(*p.disaggregated) : "");
    t.add_row(row);
  }
  t.print(os, "  ");
  os << '\n';
  print_best_by_objective(os, scenario, result);
}

}  // namespace tessera
