#include "studies/json/stage_breakdown.hpp"

#include <string>
#include <unordered_set>

#include "eval/host_step_timer.hpp"
#include "studies/json/json_number.hpp"
#include "studies/json/stage_parts.hpp"

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

// Which configurations get a breakdown: distinct keys in the order offered, at most the bound.
class Chosen {
 public:
  bool take(std::uint64_t key) {
    if (seen_.size() >= kMaxBreakdowns || !seen_.insert(key).second) return false;
    return true;
  }

 private:
  std::unordered_set<std::uint64_t> seen_;
};

// Times one prompt's prefill or the decode step at the mean context of `c` on `session`, and
// returns its stages' parts (empty when the layout is invalid).
class StepBreakdown {
 public:
  explicit StepBreakdown(const Session& session) : session_(session) {}

  nlohmann::json prefill(const ParallelConfig& c, std::int64_t batch) { return time(c, batch, true); }
  nlohmann::json decode(const ParallelConfig& c, std::int64_t batch) { return time(c, batch, false); }

 private:
  nlohmann::json time(const ParallelConfig& c, std::int64_t batch, bool prefill) {
    const Evaluator& ev = session_.evaluator();
    ev.layout_for(c, layout_);
    if (!layout_.layout.valid) return nlohmann::json::array();
    const Workload& w = session_.workload();
    HostStepTimer timer(ev, c, layout_.layout, scratch_);
    if (prefill)
      timer.prefill(batch, w.input, 0);
    else
      timer.decode_step(batch, static_cast<double>(w.input) + static_cast<double>(w.output) / 2);
    return stage_parts_json(scratch_.stages);
  }

  const Session& session_;
  Evaluation layout_, scratch_;
};

}  // namespace

nlohmann::json stage_parts_json(const StageList& stages) {
  nlohmann::json out = nlohmann::json::array();
  for (const Stage& s : stages) {
    const StageParts p = stage_parts(s.compute_s, s.memory_s, s.comm_s, s.visible_s);
    out.push_back({{"name", s.name},
                   {"count", json_number(s.count)},
                   {"compute_s", json_number(p.compute_s)},
                   {"memory_s", json_number(p.memory_s)},
                   {"communication_s", json_number(p.communication_s)},
                   {"overhead_s", json_number(p.overhead_s)}});
  }
  return out;
}

nlohmann::json stage_breakdown_json(const Session& session, const ParallelConfig& config) {
  Evaluation e;
  session.evaluator().evaluate(config, e);
  return stages_of(e);
}

void add_search_stages(nlohmann::json& j, const Session& session, const SearchResult& res) {
  Evaluation e;
  nlohmann::json breakdowns = nlohmann::json::object();
  Chosen chosen;
  // Evaluates record `index` (once) and returns its explain-style stages.
  const auto stages = [&](std::size_t index) {
    const ConfigRecord& r = res.records[index];
    session.evaluator().evaluate(r.config, e);
    if (chosen.take(r.key) && e.valid) breakdowns[std::to_string(r.key)] = stage_parts_json(e.stages);
    return stages_of(e);
  };
  if (res.best && j["best"].is_object()) {
    j["best"]["id"] = res.records[*res.best].key;
    j["best"]["stages"] = stages(*res.best);
  }
  nlohmann::json& top = j["top"];
  for (std::size_t i = 0; i < res.top.size() && i < top.size(); ++i) {
    top[i]["id"] = res.records[res.top[i]].key;
    top[i]["stages"] = stages(res.top[i]);
  }
  nlohmann::json& pareto = j["pareto"];
  for (std::size_t i = 0; i < res.pareto.size() && i < pareto.size(); ++i) {
    const ConfigRecord& r = res.records[res.pareto[i]];
    pareto[i]["id"] = r.key;
    if (!chosen.take(r.key)) continue;
    session.evaluator().evaluate(r.config, e);
    if (e.valid) breakdowns[std::to_string(r.key)] = stage_parts_json(e.stages);
  }
  j["breakdowns"] = std::move(breakdowns);
}

void add_serve_breakdowns(nlohmann::json& j, const Session& session, const ServingAnswer& answer) {
  const ServeResult& res = answer.aggregated;
  StepBreakdown step(session);
  nlohmann::json breakdowns = nlohmann::json::object();
  Chosen chosen;
  const auto add = [&](nlohmann::json& entry, const ServeRecord& r) {
    if (entry.is_object()) entry["id"] = r.key;
    if (!chosen.take(r.key) || !r.runnable) return;
    breakdowns[std::to_string(r.key)] = {{"prefill", step.prefill(r.config, 1)},
                                         {"decode", step.decode(r.config, r.point.batch)}};
  };
  if (res.best()) add(j["best"], *res.best());
  for (std::size_t i = 0; i < res.top.size() && i < j["top"].size(); ++i) add(j["top"][i], res.top[i]);
  for (std::size_t i = 0; i < res.frontier.size() && i < j["frontier"].size(); ++i)
    add(j["frontier"][i], res.frontier[i]);
  if (res.closest_miss && j["closest_miss"].is_object()) j["closest_miss"]["id"] = res.closest_miss->key;
  j["breakdowns"] = std::move(breakdowns);

  if (!answer.disagg || !j["disaggregated"].is_object()) return;
  const PoolSessions pools = pool_sessions(session);
  StepBreakdown prefill_step(*pools.prefill), decode_step(*pools.decode);
  nlohmann::json& frontier = j["disaggregated"]["frontier"];
  nlohmann::json pairs = nlohmann::json::object();
  const std::vector<DisaggPair>& pf = answer.disagg->result.frontier;
  for (std::size_t i = 0; i < pf.size() && i < frontier.size(); ++i) {
    const std::string id = "disagg-" + std::to_string(i);
    frontier[i]["id"] = id;
    if (i >= kMaxBreakdowns) continue;
    pairs[id] = {{"prefill", prefill_step.prefill(pf[i].prefill.config, pf[i].prefill.batch)},
                 {"decode", decode_step.decode(pf[i].decode.config, pf[i].decode.batch)}};
  }
  j["disaggregated"]["breakdowns"] = std::move(pairs);
}

}  // namespace tessera
