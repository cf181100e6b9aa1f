// `tessera compare --json`: compare_document.hpp.
#include "studies/documents/compare_document.hpp"

#include <algorithm>
#include <cmath>

#include "studies/json/band_json.hpp"
#include "studies/json/config_json.hpp"
#include "studies/json/points_json.hpp"
#include "tessera/version.hpp"

namespace tessera {
namespace {

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

}  // namespace tessera
