#include "report/study_text/explore_report.hpp"

#include <cmath>

#include "report/study_text/search_report.hpp"
#include "report/study_text/sensitivity_report.hpp"
#include "report/text/csv_cells.hpp"
#include "report/text/text_table.hpp"
#include "tessera/units.hpp"

namespace tessera {

void print_explore_text(std::ostream& os, const StudyDescription& study, const ExploreResult& result,
                        std::size_t width) {
  const Scenario& scenario = study.scenario;
  const auto& axes = scenario.sweep.hardware;
  print_scenario_header(os, study);
  os << "hardware grid: " << result.total_points << " points over " << axes.size() << " axes; search "
     << scenario.plugins.search.name << " at each (evaluated = configurations it scored)\n";
  if (result.points.size() < result.total_points)
    os << "listed: the " << result.points.size()
       << " fastest or on the latency/cost frontier (--top N lists more; --csv FILE lists every point)\n";
  os << "\n";
  std::vector<std::string> head{"#"};
  for (const auto& a : axes) head.push_back(a.path.substr(a.path.find('.') + 1));
  for (const char* h : {"best config", "latency", "cost", "evaluated", "Pareto"}) head.push_back(h);
  TextTable t(head);
  // Fitting a width: the axes by their last name, the knobs common to every best config named
  // once, then the evaluated counts go.
  for (std::size_t a = 0; a < axes.size(); ++a)
    t.set_fit(1 + a, {0, axes[a].path.substr(axes[a].path.rfind('.') + 1), false, false});
  t.set_fit(1 + axes.size(), {0, "best", false, true});
  t.set_fit(4 + axes.size(), {1, "", false, false});
  for (std::size_t i = 0; i < result.points.size(); ++i) {
    const auto& p = result.points[i];
    std::vector<std::string> row{std::to_string(p.index + 1)};
    for (std::size_t a = 0; a < axes.size(); ++a)
      row.push_back(format_quantity(p.values[a], axes[a].dimension));
    row.push_back(p.feasible ? short_config(study.machine(), p.best.config) : "nothing feasible");
    row.push_back(p.feasible ? format_quantity(p.best.latency_s, Dimension::time) : "—");
    row.push_back(std::isfinite(p.cost) ? fixed(p.cost / 1e3, 1) + " kUSD" : "—");
    row.push_back(std::to_string(p.counts.evaluated) + "/" + std::to_string(p.counts.valid));
    row.push_back(result.on_pareto(i) ? "*" : "");
    t.add_row(row);
  }
  t.print(os, "  ", width);
  if (!result.hardware.empty()) {
    os << "\nhardware elasticities at the scenario's machine, ranked by |re-optimised|\n";
    print_hardware(os, result.hardware, width);
  }
}

void write_explore_csv_header(std::ostream& os, const StudyDescription& study) {
  os << "index";
  for (const auto& a : study.scenario.sweep.hardware) {
    const std::string unit = si_unit(a.dimension);
    os << ',' << csv_escape(unit.empty() ? a.path : a.path + "_" + unit);
  }
  os << ",feasible,latency_s,cost_USD,cp,tp,pp,dp,ep,pes,evaluated,valid\n";
}

void write_explore_csv_row(std::ostream& os, const StudyDescription& study, const ExplorePoint& p) {
  os << p.index;
  for (std::size_t a = 0; a < study.scenario.sweep.hardware.size(); ++a) os << ',' << csv_num(p.values[a]);
  os << ',' << (p.feasible ? "true" : "false");
  if (p.feasible) {
    const ParallelConfig& c = p.best.config;
    os << ',' << csv_num(p.best.latency_s) << ',' << csv_num(p.cost) << ',' << c.cp << ',' << c.tp << ','
       << c.pp << ',' << c.dp << ',' << c.ep << ',' << p.best.pes;
  } else {
    os << ",,,,,,,,";
  }
  os << ',' << p.counts.evaluated << ',' << p.counts.valid << '\n';
}

}  // namespace tessera
