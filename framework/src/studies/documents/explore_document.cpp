#include "studies/documents/explore_document.hpp"

#include "studies/documents/disagg_document.hpp"
#include "studies/documents/search_document.hpp"
#include "studies/documents/sensitivity_document.hpp"
#include "studies/documents/serve_document.hpp"
#include "studies/json/json_number.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {

std::string serve_explore_knobs(const ParallelConfig& c) {
  std::string s = "tp" + std::to_string(c.tp) + " pp" + std::to_string(c.pp) + " dp" + std::to_string(c.dp);
  if (c.cp != 1) s = "cp" + std::to_string(c.cp) + ' ' + s;
  if (c.ep != 1) s += " ep" + std::to_string(c.ep);
  return s;
}

namespace {

// What both explore documents open with: the scenario, model, machine and latency model (the
// HTML report's header, docs/report.md) and the hardware axes.
nlohmann::json explore_header(const Session& session) {
  const Scenario& scenario = session.scenario();
  nlohmann::json j;
  j["scenario"] = scenario.name;
  j["version"] = kVersion;
  j["model"] = session.model().name;
  j["machine"] = session.machine().name;
  j["latency_model"] = session.latency_name();
  nlohmann::json ax = nlohmann::json::array();
  for (const auto& a : scenario.sweep.hardware)
    ax.push_back({{"path", a.path}, {"unit", si_unit(a.dimension)}, {"values", a.values}});
  j["axes"] = ax;
  return j;
}

}  // namespace

nlohmann::json explore_json(const Session& session, const ExploreResult& result) {
  const Scenario& scenario = session.scenario();
  const auto& axes = scenario.sweep.hardware;
  nlohmann::json j = explore_header(session);
  j["search"] = scenario.plugins.search.name;
  nlohmann::json pts = nlohmann::json::array();
  const bool listed_some = result.points.size() < result.total_points;
  for (std::size_t i = 0; i < result.points.size(); ++i) {
    const auto& p = result.points[i];
    nlohmann::json hwv = nlohmann::json::object();
    for (std::size_t a = 0; a < axes.size(); ++a) hwv[axes[a].path] = p.values[a];
    nlohmann::json e{{"hardware", hwv},
                     {"feasible", p.feasible},
                     {"cost_USD", json_number(p.cost)},
                     {"search", {{"evaluated", p.counts.evaluated}, {"valid", p.counts.valid}}},
                     {"pareto", result.on_pareto(i)}};
    if (p.feasible)
      e["best"] = record_json(session, objective_infos(session.evaluator().objectives()), p.best);
    if (listed_some) e["index"] = p.index;  // its position in the grid's order
    pts.push_back(e);
  }
  j["points"] = pts;
  if (listed_some) {
    j["hardware_points"] = result.total_points;
    j["points_listed"] =
        "the fastest and the latency/cost frontier (tessera explore --top N; --csv lists every point)";
  }
  j["pareto"] = result.pareto;
  j["hardware_sensitivity"] = hardware_json(result.hardware);
  return j;
}

nlohmann::json serve_explore_json(const Session& session, const ServeExploreResult& result) {
  const auto& axes = session.scenario().sweep.hardware;
  nlohmann::json j = explore_header(session);
  j["mode"] = "serve";
  std::vector<std::string> keys;
  bool disagg_cost = false;
  for (const ServeAxis& a : result.axes) {
    keys.push_back(objective_key(ObjectiveInfo{a.name, a.unit, a.direction}));
    disagg_cost =
        disagg_cost || (a.name == "cost_per_mtok" && session.scenario().serving.disaggregated.enabled);
  }
  nlohmann::json pts = nlohmann::json::array();
  for (const ServeExplorePoint& p : result.points) {
    nlohmann::json hwv = nlohmann::json::object();
    for (std::size_t a = 0; a < axes.size(); ++a) hwv[axes[a].path] = p.values[a];
    nlohmann::json agg{{"tokens_per_s_per_pe", json_number(p.aggregated)}, {"machine", p.aggregated_machine}};
    if (p.aggregated_best) {
      agg["parallelism"] = serve_explore_knobs(p.aggregated_best->config);
      agg["batch"] = p.aggregated_best->point.batch;
      if (session.scenario().serving.speculative.given)
        agg["draft_tokens"] = p.aggregated_best->point.speculative_tokens;
    }
    nlohmann::json e{{"hardware", hwv}, {"aggregated", agg}};
    e["disaggregated"] =
        p.disaggregated ? disagg_pair_json(session, *p.disaggregated) : nlohmann::json(nullptr);
    e["gain"] = p.gain > 0 ? json_number(p.gain) : nlohmann::json(nullptr);
    e["best_tokens_per_s_per_pe"] = json_number(p.best);
    // The aggregated study's best within the SLO on each objective (null: none), keyed by
    // objective and unit as serve's records are.
    nlohmann::json best = nlohmann::json::object();
    for (std::size_t a = 0; a < keys.size() && a < p.objective_values.size(); ++a)
      best[keys[a]] = json_number(p.objective_values[a]);
    e["objectives"] = best;
    if (disagg_cost)
      e["disaggregated_cost_per_mtok_USD_per_Mtok"] = json_number(p.disaggregated_cost_per_mtok);
    pts.push_back(e);
  }
  j["points"] = pts;
  j["ranking"] = result.ranking;
  // One ranking per objective, and what each ranks by (the aggregated study's value, or the
  // disaggregated pair's: tokens/s/PE, and cost per Mtok when the pair is priced).
  nlohmann::json objectives = nlohmann::json::array(), rankings = nlohmann::json::object();
  for (std::size_t a = 0; a < result.axes.size(); ++a) {
    const ServeAxis& axis = result.axes[a];
    nlohmann::json o = serve_axis_json(axis);
    o["key"] = keys[a];
    o["ranked_by"] = result.ranked_disaggregated[a] ? "disaggregated" : "aggregated";
    objectives.push_back(std::move(o));
    rankings[axis.name] = result.rankings[a];
  }
  j["objectives"] = objectives;
  j["rankings"] = rankings;
  if (disagg_cost) j["disaggregated_cost_note"] = result.disaggregated_cost_note;
  return j;
}

}  // namespace tessera
