#include "studies/json/points_json.hpp"

#include "studies/documents/search_document.hpp"
#include "studies/json/json_number.hpp"

namespace tessera {
namespace {

// The knobs, flat (the chart colours by them), and the short label the tooltip shows.
void knobs_json(nlohmann::json& j, const MachineSpec& m, const ParallelConfig& c) {
  j["config"] = short_config(m, c);
  j["cp"] = c.cp;
  j["tp"] = c.tp;
  j["pp"] = c.pp;
  j["dp"] = c.dp;
  j["ep"] = c.ep;
  j["kv_shard_mode"] = kv_shard_mode_name(c.kv_shard_mode);
  j["ffn_shard_scope"] = ffn_shard_scope_name(c.ffn_shard_scope);
  j["tp_placement"] = m.placement_name(c.tp_placement);
  j["cp_placement"] = m.placement_name(c.cp_placement);
}

nlohmann::json objectives_json(const std::vector<ObjectiveInfo>& slots,
                               const std::array<double, kMaxObjectives>& values) {
  nlohmann::json obj = nlohmann::json::object();
  for (std::size_t i = 0; i < slots.size() && i < values.size(); ++i)
    obj[objective_key(slots[i])] = json_number(values[i]);
  return obj;
}

// A sampled list flags each of its points `sampled: true` (each stands for others the sample
// left out; the frontier is complete in `pareto` / `frontier`); an unsampled one flags none.
void add_tally(nlohmann::json& j, nlohmann::json points, std::uint64_t seen, bool sampled) {
  if (sampled)
    for (nlohmann::json& p : points) p["sampled"] = true;
  j["points"] = std::move(points);
  j["points_total"] = seen;
  j["points_sampled"] = sampled;
}

}  // namespace

void add_search_points(nlohmann::json& j, const Session& session, const SearchResult& res) {
  const MachineSpec& m = session.machine();
  const std::vector<ObjectiveInfo> infos = objective_infos(res.objectives);
  nlohmann::json points = nlohmann::json::array();
  for (const SearchPoint& p : res.points) {
    nlohmann::json row;
    row["id"] = p.key;
    knobs_json(row, m, p.config);
    row["objectives"] = objectives_json(infos, p.objectives);
    row["latency_s"] = json_number(p.latency_s);
    row["throughput_tok_s"] = json_number(p.throughput_tok_s);
    row["pes"] = p.pes;
    row["fits_memory"] = p.fits_memory;
    row["feasible"] = p.feasible;
    points.push_back(std::move(row));
  }
  add_tally(j, std::move(points), res.points_seen, res.points_sampled);
}

void add_serve_points(nlohmann::json& j, const Session& session, const ServeResult& res) {
  const MachineSpec& m = session.machine();
  const std::vector<ObjectiveInfo> infos = objective_infos(res.objectives);
  nlohmann::json points = nlohmann::json::array();
  for (const ServePoint& p : res.points) {
    nlohmann::json row;
    row["id"] = p.key;
    knobs_json(row, m, p.config);
    row["batch"] = p.point.batch;
    row["token_budget_tokens"] = p.point.token_budget;
    if (session.scenario().serving.speculative.given) {
      row["draft_tokens"] = p.point.speculative_tokens;
      row["tokens_per_verify"] = p.point.tokens_per_verify;
      row["acceptance"] = p.acceptance >= 0 ? nlohmann::json(p.acceptance) : nlohmann::json(nullptr);
    }
    row["replicas"] = p.replicas;
    row["pes"] = p.pes;
    row["ttft_s"] = json_number(p.ttft_s);
    row["tpot_s"] = json_number(p.tpot_s);
    row["tokens_per_s_per_pe"] = json_number(p.tokens_per_s_per_pe);
    row["tokens_per_s_per_user"] = json_number(p.tokens_per_s_per_user);
    row["objectives"] = objectives_json(infos, p.objectives);
    row["feasible"] = p.feasible;
    points.push_back(std::move(row));
  }
  add_tally(j, std::move(points), res.points_seen, res.points_sampled);
}

}  // namespace tessera
