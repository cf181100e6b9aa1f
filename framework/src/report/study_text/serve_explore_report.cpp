#include "report/study_text/serve_explore_report.hpp"

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

void print_serve_explore_text(std::ostream& os, const StudyDescription& study,
                              const ServeExploreResult& result) {
  const Scenario& scenario = study.scenario;
  const auto& axes = scenario.sweep.hardware;
  const MachineSpec& m = scenario.machine;
  os << "scenario   " << scenario.name << ": " << scenario.model.name << " on " << m.name;
  for (const PoolMachine* pm : {&scenario.serving.prefill_machine, &scenario.serving.decode_machine})
    if (pm->given)
      os << (pm == &scenario.serving.prefill_machine ? ", prefill on " : ", decode on ") << pm->machine.name;
  os << "\nworkload   serve: ISL " << scenario.workload.input << " prompt tokens, OSL "
     << scenario.workload.output << " output tokens per request\n";
  os << "hardware grid: " << result.points.size() << " points over " << axes.size()
     << " axes; the serving study at each, ranked by the best "
     << (scenario.serving.disaggregated.enabled ? "disaggregated " : "aggregated ")
     << "tokens/s/PE within the SLO\n\n";
  std::vector<std::string> head{"rank", "#"};
  for (const auto& a : axes) head.push_back(a.path.rfind("machine.", 0) == 0 ? a.path.substr(8) : a.path);
  for (const char* h : {"aggregated tok/s/PE (machine)", "disaggregated", "gain", "pools"}) head.push_back(h);
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
    row.push_back(p.disaggregated ? fixed(p.disaggregated->tokens_per_s_per_pe, 1) : "—");
    row.push_back(p.gain > 0 ? fixed(p.gain, 2) + "x" : "—");
    row.push_back(p.disaggregated ? pools_text(*p.disaggregated) : "");
    t.add_row(row);
  }
  t.print(os, "  ");
}

}  // namespace tessera
