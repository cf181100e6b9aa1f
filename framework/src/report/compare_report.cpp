#include "report/compare_report.hpp"

#include <algorithm>
#include <cmath>

#include "report/band_text.hpp"
#include "report/explain_report.hpp"
#include "report/search_report.hpp"  // short_config
#include "report/text_table.hpp"
#include "studies/documents/points_json.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {
namespace {

std::string time_text(double s) { return format_quantity(s, Dimension::time); }
std::string pct(double f) { return fixed(100 * f, 1) + " %"; }

// `points` (the HTML report's rank-vs-rank scatter, docs/report.md): every feasible
// configuration with its latency and rank (1 + configurations strictly better) under each
// model; above kMaxReportPoints every k-th in grid order (k = ceil(feasible / kMaxReportPoints)),
// the optima always kept; a point kept as a k-th is flagged `sampled: true`.
void add_compare_points(nlohmann::json& j, const CompareResult& r, const Session& s) {
  const std::size_t n = r.configs.size();
  std::vector<std::vector<double>> sorted(r.models.size());
  for (std::size_t k = 0; k < r.models.size(); ++k) {
    sorted[k] = r.scores[k];
    std::sort(sorted[k].begin(), sorted[k].end());
  }
  const std::size_t stride = (n + kMaxReportPoints - 1) / std::max<std::size_t>(kMaxReportPoints, 1);
  nlohmann::json points = nlohmann::json::array();
  for (std::size_t i = 0; i < n; ++i) {
    const bool optimum = std::find(r.best.begin(), r.best.end(), i) != r.best.end();
    if (stride > 1 && i % stride != 0 && !optimum) continue;
    nlohmann::json latency = nlohmann::json::object(), rank = nlohmann::json::object();
    for (std::size_t k = 0; k < r.models.size(); ++k) {
      latency[r.models[k]] = r.latency_s[k][i];
      rank[r.models[k]] =
          1 + (std::lower_bound(sorted[k].begin(), sorted[k].end(), r.scores[k][i]) - sorted[k].begin());
    }
    nlohmann::json p = config_json(r.configs[i], s.machine());
    p["latency_s"] = latency;
    p["rank"] = rank;
    if (stride > 1 && !optimum) p["sampled"] = true;  // every k-th: it stands for the k - 1 after it
    points.push_back(std::move(p));
  }
  j["points_total"] = n;
  j["points_sampled"] = stride > 1;
  j["points"] = std::move(points);
}

}  // namespace

nlohmann::json compare_json(const CompareResult& r, const Session& s) {
  nlohmann::json j;
  j["scenario"] = s.scenario().name;
  j["version"] = kVersion;
  j["model"] = s.model().name;
  j["machine"] = s.machine().name;
  j["models"] = r.models;
  j["objective"] = r.objective;
  j["counts"] = {{"enumerated", r.enumerated}, {"valid", r.valid}, {"feasible", r.feasible}};
  j["optima"] = nlohmann::json::array();
  for (std::size_t k = 0; k < r.models.size(); ++k) {
    const std::size_t b = r.best[k];
    nlohmann::json o;
    o["latency_model"] = r.models[k];
    o["config"] = config_json(r.configs[b], s.machine());
    o["config_text"] = format_config(r.configs[b], s.machine());
    o["score"] = r.scores[k][b];
    o["latency_s"] = r.latency_s[k][b];
    if (k < r.bands.size()) {
      o["latency_band"] = band_json(r.bands[k], BandQuantity::latency, r.latency_s[k][b]);
      o["band"] = band_summary_json(r.bands[k]);
    }
    nlohmann::json ranks = nlohmann::json::object();
    for (std::size_t j2 = 0; j2 < r.models.size(); ++j2)
      ranks[r.models[j2]] = rank_of(r.scores[j2], r.scores[j2][b]);
    o["rank_under"] = ranks;
    j["optima"].push_back(o);
  }
  j["stages"] = nlohmann::json::array();
  for (const CompareOptimumView& v : r.optima) {
    nlohmann::json o;
    std::vector<std::string> owners;
    for (std::size_t k = 0; k < r.models.size(); ++k)
      if (r.best[k] == v.config_index) owners.push_back(r.models[k]);
    o["optimum_of"] = owners;
    o["config"] = config_json(r.configs[v.config_index], s.machine());
    nlohmann::json per = nlohmann::json::object();
    for (std::size_t k = 0; k < r.models.size(); ++k)
      per[r.models[k]] = {{"latency_s", v.latency_s[k]}, {"score", v.score[k]}, {"rank", v.rank[k]}};
    o["by_model"] = per;
    o["stages"] = nlohmann::json::array();
    for (const CompareStageRow& row : v.stages) {
      nlohmann::json st;
      st["name"] = row.name;
      st["block"] = row.block;
      nlohmann::json vis = nlohmann::json::object(), cnt = nlohmann::json::object();
      for (std::size_t k = 0; k < r.models.size(); ++k) {
        vis[r.models[k]] = row.visible_s[k];
        cnt[r.models[k]] = row.count[k];
      }
      st["visible_s"] = vis;
      st["count"] = cnt;
      o["stages"].push_back(st);
    }
    j["stages"].push_back(o);
  }
  j["kendall"] = nlohmann::json::array();
  j["winner_changes"] = nlohmann::json::array();
  for (const ComparePair& p : r.pairs) {
    const double tau = p.kendall.tau_b;
    j["kendall"].push_back({{"a", r.models[p.a]},
                            {"b", r.models[p.b]},
                            {"tau_b", std::isnan(tau) ? nlohmann::json(nullptr) : nlohmann::json(tau)},
                            {"n", p.kendall.n},
                            {"concordant", p.kendall.concordant},
                            {"discordant", p.kendall.discordant},
                            {"ties_a", p.kendall.ties_x},
                            {"ties_b", p.kendall.ties_y}});
    if (!p.same_winner)
      j["winner_changes"].push_back({{"a", r.models[p.a]},
                                     {"b", r.models[p.b]},
                                     {"best_a", format_config(r.configs[r.best[p.a]], s.machine())},
                                     {"best_b", format_config(r.configs[r.best[p.b]], s.machine())},
                                     {"differing_knobs", p.differing_knobs},
                                     {"regret_of_a_best_under_b", p.regret_a_under_b},
                                     {"regret_of_b_best_under_a", p.regret_b_under_a}});
  }
  add_compare_points(j, r, s);
  return j;
}

void print_compare_text(std::ostream& os, const CompareResult& r, const Session& s, std::size_t width) {
  const std::size_t m = r.models.size();
  os << "scenario " << s.scenario().name << ": " << r.valid << " valid configurations (" << r.enumerated
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
    row.push_back(time_text(r.latency_s[k][b]) +
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
        cells.push_back(row.count[k] > 0 ? time_text(row.visible_s[k]) : "-");
      st.add_row(cells);
    }
    st.add_separator();
    std::vector<std::string> tot = {"total", "", ""};
    for (std::size_t k = 0; k < m; ++k) tot.push_back(time_text(v.latency_s[k]));
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
