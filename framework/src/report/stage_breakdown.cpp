#include "report/stage_breakdown.hpp"

#include "report/json_number.hpp"

namespace tessera {
namespace {

nlohmann::json stages_of(const Evaluation& e) {
  nlohmann::json stages = nlohmann::json::array();
  if (!e.valid) return stages;
  for (const Stage& s : e.stages)
    stages.push_back({{"name", s.name},
                      {"block", stage_block_name(s.block)},
                      {"count", json_number(s.count)},
                      {"compute_s", json_number(s.compute_s)},
                      {"memory_s", json_number(s.memory_s)},
                      {"comm_s", json_number(s.comm_s)},
                      {"visible_s", json_number(s.visible_s)},
                      {"bound", bound_name(s.bound)}});
  return stages;
}

}  // namespace

nlohmann::json stage_breakdown_json(const Session& session, const ParallelConfig& config) {
  Evaluation e;
  session.evaluator().evaluate(config, e);
  return stages_of(e);
}

void add_search_stages(nlohmann::json& j, const Session& session, const SearchResult& res) {
  Evaluation e;
  const auto stages = [&](std::size_t index) {
    session.evaluator().evaluate(res.records[index].config, e);
    return stages_of(e);
  };
  if (res.best && j["best"].is_object()) j["best"]["stages"] = stages(*res.best);
  nlohmann::json& top = j["top"];
  for (std::size_t i = 0; i < res.top.size() && i < top.size(); ++i) top[i]["stages"] = stages(res.top[i]);
}

}  // namespace tessera
