#include "report/study_text/compare_report.hpp"

#include <algorithm>
#include <cmath>

#include "report/study_text/explain_report.hpp"
#include "report/study_text/search_report.hpp"  // short_config
#include "report/text/band_text.hpp"
#include "report/text/text_table.hpp"
#include "studies/json/points_json.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {
namespace {

std::string duration_text(double s) { return format_quantity(s, Dimension::time); }
std::string pct(double f) { return fixed(100 * f, 1) + " %"; }

}  // namespace

void print_compare_text(std::ostream& os, const CompareResult& r, const StudyDescription& s,
                        std::size_t width) {
  const std::size_t m = r.models.size();
  os << "scenario " << s.scenario.name << ": " << r.valid << " valid configurations (" << r.enumerated
     << " grid points), " << r.feasible << " feasible; ranked by " << r.objective << "\n\n";

  os << "Optima and their rank under each model (1 = best of " << r.feasible << "):\n";
  std::vector<std::string> head = {"model", "optimum"};
  for (const auto& name : r.models) head.push_back("rank under " + name);
  head.push_back("latency");
  std::vector<TextTable::Align> al(head.size(), TextTable::Align::right);
  al[0] = al[1] = TextTable::Align::left;
  TextTable t(head, al);
  // Fitting a width: the optimum in short form with the knobs common to every optimum named
  // once, each rank column by its model's name.
  t.set_fit(1, {0, "", false, true});
  for (std::size_t j = 0; j < m; ++j) t.set_fit(2 + j, {0, r.models[j], false, false});
  for (std::size_t k = 0; k < m; ++k) {
    const std::size_t b = r.best[k];
    std::vector<std::string> row = {r.models[k], format_config(r.configs[b], s.machine())};
    for (std::size_t j = 0; j < m; ++j) row.push_back(std::to_string(rank_of(r.scores[j], r.scores[j][b])));
    row.push_back(duration_text(r.latency_s[k][b]) +
                  (k < r.bands.size() ? band_suffix(r.bands[k], BandQuantity::latency) : ""));
    t.add_row(row, {"", short_config(s.machine(), r.configs[b])});
  }
  t.print(os, "  ", width);
  if (width > 0) os << "  (rank under each model, 1 = best)\n";
  for (std::size_t k = 0; k < m && k < r.bands.size(); ++k)
    os << "  " << r.models[k] << ": " << wrap_words(band_statement(r.bands[k]), 100, "    ") << '\n';

  for (const CompareOptimumView& v : r.optima) {
    std::string owners;
    for (std::size_t k = 0; k < m; ++k)
      if (r.best[k] == v.config_index) owners += (owners.empty() ? "" : ", ") + r.models[k];
    os << "\nOptimum of " << owners << ": "
       << (width > 0 ? short_config(s.machine(), r.configs[v.config_index])
                     : format_config(r.configs[v.config_index], s.machine()))
       << "\n  stage by stage, visible time per occurrence (count x visible = the stage's share):\n";
    std::vector<std::string> h = {"stage", "block", "count"};
    for (const auto& name : r.models) h.push_back(name);
    std::vector<TextTable::Align> a(h.size(), TextTable::Align::right);
    a[0] = a[1] = TextTable::Align::left;
    TextTable st(h, a);
    for (const CompareStageRow& row : v.stages) {
      double count = 0;
      for (double c : row.count) count = std::max(count, c);
      std::vector<std::string> cells = {row.name, row.block,
                                        fixed(count, count == std::floor(count) ? 0 : 2)};
      for (std::size_t k = 0; k < m; ++k)
        cells.push_back(row.count[k] > 0 ? duration_text(row.visible_s[k]) : "-");
      st.add_row(cells);
    }
    st.add_separator();
    std::vector<std::string> tot = {"total", "", ""};
    for (std::size_t k = 0; k < m; ++k) tot.push_back(duration_text(v.latency_s[k]));
    st.add_row(tot);
    std::vector<std::string> rk = {"rank", "", ""};
    for (std::size_t k = 0; k < m; ++k) rk.push_back(std::to_string(v.rank[k]));
    st.add_row(rk);
    st.print(os, "  ", width);
  }

  if (!r.pairs.empty()) {
    os << "\nKendall tau-b between the rankings of the " << r.feasible << " feasible configurations:\n";
    TextTable kt({"a", "b", "tau-b", "concordant", "discordant", "same optimum"},
                 {TextTable::Align::left, TextTable::Align::left, TextTable::Align::right,
                  TextTable::Align::right, TextTable::Align::right, TextTable::Align::left});
    for (const ComparePair& p : r.pairs)
      kt.add_row({r.models[p.a], r.models[p.b],
                  std::isnan(p.kendall.tau_b) ? "n/a" : fixed(p.kendall.tau_b, 4),
                  std::to_string(p.kendall.concordant), std::to_string(p.kendall.discordant),
                  p.same_winner ? "yes" : "no"});
    kt.print(os, "  ", width);
    bool any = false;
    for (const ComparePair& p : r.pairs) {
      if (p.same_winner) continue;
      if (!any) os << "\nWhere the winner changes:\n";
      any = true;
      os << "  " << r.models[p.a] << " vs " << r.models[p.b] << ": ";
      for (std::size_t i = 0; i < p.differing_knobs.size(); ++i)
        os << (i ? "; " : "") << p.differing_knobs[i];
      os << "\n    " << r.models[p.a] << "'s optimum is " << pct(p.regret_a_under_b) << " worse under "
         << r.models[p.b] << "; " << r.models[p.b] << "'s optimum is " << pct(p.regret_b_under_a)
         << " worse under " << r.models[p.a] << "\n";
    }
    if (!any) os << "\nEvery model picks the same optimum.\n";
  }
}

}  // namespace tessera
