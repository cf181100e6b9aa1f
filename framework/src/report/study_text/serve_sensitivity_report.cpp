#include "report/study_text/serve_sensitivity_report.hpp"

#include <cmath>
#include <string>

#include "report/text/text_table.hpp"
#include "studies/documents/explore_document.hpp"  // serve_explore_knobs
#include "tessera/units.hpp"

namespace tessera {
namespace {

std::string serve_elasticity_text(double e) { return std::isfinite(e) ? fixed(e, 3) : "—"; }

std::string serving_point_text(const ServingPoint& p, bool drafts) {
  std::string s = "batch " + std::to_string(p.batch) + ", token budget " + std::to_string(p.token_budget);
  if (drafts) s += ", k " + std::to_string(p.speculative_tokens);
  return s;
}

void print_serve_sensitivity_header(std::ostream& os, const StudyDescription& described,
                                    const ServeSensitivityStudy& study) {
  const Scenario& s = described.scenario;
  const ServeRecord& b = study.best;
  os << "scenario   " << s.name << ": " << s.model.name << " on " << s.machine.name << ", serve: ISL "
     << s.workload.input << ", OSL " << s.workload.output << '\n';
  os << "plugins    latency " << described.latency_name << ", serving " << s.plugins.serving.name
     << ", objectives";
  for (const ServeAxis& a : study.axes)
    os << ' ' << a.name << (a.direction == Direction::maximize ? "↑" : "↓");
  os << '\n';
  os << "best       " << serve_explore_knobs(b.config) << ", "
     << serving_point_text(b.point, s.serving.speculative.given) << ": " << fixed(b.tokens_per_s_per_pe, 1)
     << " tok/s/PE, " << fixed(b.tokens_per_s_per_user, 1) << " tok/s/user";
  if (!study.axes.empty() && study.axes.front().name != "tokens_per_s_per_pe")
    os << ", " << study.axes.front().name << ' ' << fixed(b.axis_values[0], 3) << ' '
       << study.axes.front().unit;
  os << "\n           best tokens/s/PE within the SLO " << fixed(study.best_tokens_per_s_per_pe, 1);
  if (study.disaggregated_tokens_per_s_per_pe)
    os << ", disaggregated " << fixed(*study.disaggregated_tokens_per_s_per_pe, 1);
  os << '\n';
  if (!study.note.empty()) os << "note       " << wrap_words(study.note, 100, "           ") << '\n';
}

void print_serve_knob(std::ostream& os, const ServeKnobSweep& k, const ServeSensitivityStudy& study,
                      bool drafts, std::size_t width) {
  os << "\n" << k.knob << " (best " << k.baseline << ")\n";
  TextTable t({k.knob, "PEs", "tok/s/PE", "vs best", "point", "reason"},
              {TextTable::Align::right, TextTable::Align::right, TextTable::Align::right,
               TextTable::Align::right, TextTable::Align::left, TextTable::Align::left});
  t.set_fit(5, {1, "", false, false});  // the reason: the first to go
  for (const ServeKnobValue& v : k.values)
    t.add_row({std::to_string(v.value), std::to_string(v.pes),
               v.feasible ? fixed(v.tokens_per_s_per_pe, 1) : "—",
               v.feasible ? fixed(v.tokens_per_s_per_pe / study.best_tokens_per_s_per_pe, 3) + "×" : "—",
               v.feasible ? serving_point_text(v.point, drafts) : "", v.reason});
  t.print(os, "  ", width);
}

void print_serve_elasticities(std::ostream& os, const ServeSensitivityStudy& study, std::size_t width) {
  const bool axis = !study.axes.empty() && study.axes.front().name != "tokens_per_s_per_pe";
  const bool disagg = study.disaggregated_tokens_per_s_per_pe.has_value();
  os << "\nelasticities d ln(best tokens/s/PE within the SLO)/d ln(knob), ±10 %, ranked by |re-optimised|";
  if (axis) os << "; " << study.axes.front().name << ": its best value's";
  os << '\n';
  std::vector<std::string> head{"#", "knob", "value", "fixed", "re-optimised"};
  if (axis) {
    head.push_back(study.axes.front().name + " fixed");
    head.push_back(study.axes.front().name + " re-opt.");
  }
  if (disagg) head.push_back("disaggregated");
  head.push_back("note");
  std::vector<TextTable::Align> align(head.size(), TextTable::Align::right);
  align[1] = align.back() = TextTable::Align::left;
  TextTable t(head, align);
  t.set_fit(head.size() - 1, {1, "", false, false});
  std::size_t i = 0;
  for (const ServeElasticity& h : study.hardware) {
    std::vector<std::string> row{
        std::to_string(++i), h.label,
        h.dimension == Dimension::none ? fixed(h.value, 3) : format_quantity(h.value, h.dimension),
        serve_elasticity_text(h.fixed.elasticity), serve_elasticity_text(h.reoptimised.elasticity)};
    if (axis) {
      row.push_back(serve_elasticity_text(h.axis_fixed.elasticity));
      row.push_back(serve_elasticity_text(h.axis_reoptimised.elasticity));
    }
    if (disagg) row.push_back(serve_elasticity_text(h.disaggregated.elasticity));
    row.push_back(h.note);
    t.add_row(row);
  }
  t.print(os, "  ", width);
}

}  // namespace

void print_serve_sensitivity_text(std::ostream& os, const StudyDescription& described,
                                  const ServeSensitivityStudy& study, std::size_t width) {
  print_serve_sensitivity_header(os, described, study);
  const bool drafts = described.scenario.serving.speculative.given;
  for (const ServeKnobSweep& k : study.parallelism) print_serve_knob(os, k, study, drafts, width);
  if (study.has_hardware) print_serve_elasticities(os, study, width);
}

}  // namespace tessera
