// A serving study's JSON (`tessera serve --json`): serve_document.hpp.
#include "studies/documents/serve_document.hpp"

#include <cmath>

#include "eval/engine_kv.hpp"
#include "host/plugin_defaults.hpp"
#include "studies/documents/search_document.hpp"  // objective_key
#include "studies/json/band_json.hpp"
#include "studies/json/config_json.hpp"
#include "studies/json/dp_groups.hpp"
#include "studies/json/json_number.hpp"
#include "studies/json/serving_stack_json.hpp"
#include "studies/study_description.hpp"
#include "tessera/version.hpp"

namespace tessera {

// The groups of `rows` that differ only in dp (studies/json/dp_groups.hpp): the knobs but dp, the
// serving point, and every axis and objective value but the PE count's exactly equal.
std::vector<std::vector<std::size_t>> serve_dp_groups(const ServeResult& res,
                                                      const std::vector<ServeRecord>& rows) {
  const std::vector<ObjectiveInfo> infos = objective_infos(res.objectives);
  std::vector<DpGroupKey> keys;
  keys.reserve(rows.size());
  for (const ServeRecord& r : rows) {
    DpGroupKey k(r.config);
    k.add(r.point.batch);
    k.add(r.point.token_budget);
    k.add(r.point.speculative_tokens);
    k.add(r.acceptance);
    k.add(r.score);
    for (std::size_t i = 0; i < res.axes.size() && i < r.axis_values.size(); ++i)
      if (!(res.axes[i].name == plugin_defaults::kPesObjective || res.axes[i].unit == "PE"))
        k.add(r.axis_values[i]);
    for (std::size_t i = 0; i < res.objectives.size(); ++i)
      if (!is_pe_count_objective(infos[i])) k.add(r.objectives[i]);
    keys.push_back(std::move(k));
  }
  return dp_groups(keys);
}

namespace {

// `list` (the JSON of `rows`) with its groups named, as run's (search_report.cpp).
void name_serve_dp_groups(nlohmann::json& list, const ServeResult& res,
                          const std::vector<ServeRecord>& rows) {
  for (const std::vector<std::size_t>& g : serve_dp_groups(res, rows)) {
    if (g.size() < 2) continue;
    nlohmann::json members = nlohmann::json::array();
    for (std::size_t at : g) {
      members.push_back({{"dp", rows[at].config.dp}, {"pes", rows[at].pes}, {"index", at}});
      if (at != g.front()) list[at]["dp_member_of"] = g.front();
    }
    list[g.front()]["dp_members"] = members;
  }
}

}  // namespace

nlohmann::json serve_axis_json(const ServeAxis& axis) {
  return {{"name", axis.name},
          {"direction", axis.direction == Direction::maximize ? "maximize" : "minimize"},
          {"unit", axis.unit}};
}

nlohmann::json serve_axes_json(const std::vector<ServeAxis>& axes) {
  nlohmann::json out = nlohmann::json::array();
  for (const ServeAxis& a : axes) out.push_back(serve_axis_json(a));
  return out;
}

nlohmann::json slo_json(const ServingSlo& slo) {
  // ttft_s, tpot_s, e2e_s: the bounds the steady state binds (each metric's tightest target).
  nlohmann::json j{{"ttft_s", json_number(slo.ttft_s)},
                   {"tpot_s", json_number(slo.tpot_s)},
                   {"e2e_s", json_number(slo.e2e_s)},
                   {"min_tokens_per_s_per_user", slo.min_tokens_per_s_per_user > 0
                                                     ? nlohmann::json(slo.min_tokens_per_s_per_user)
                                                     : nlohmann::json(nullptr)},
                   {"applies_to", "means"}};
  if (slo.has_percentiles()) {
    nlohmann::json targets = nlohmann::json::array();
    for (const SloTarget& t : slo.targets)
      targets.push_back({{"metric", slo_latency_key(t.metric)},
                         {"statistic", slo_statistic_key(t)},
                         {"limit_s", t.limit_s}});
    j["targets"] = targets;
    j["applies_to"] = "each metric's tightest target (the steady state has one value per request)";
  }
  return j;
}

namespace {

nlohmann::json choice_json(const PluginChoice& c) {
  nlohmann::json params = nlohmann::json::object();
  for (const RawParam& p : c.params) params[p.key] = p.text;
  return {{"name", c.name}, {"params", params}};
}

}  // namespace

const char* serving_verdict_name(ServingVerdict v) {
  switch (v) {
    case ServingVerdict::feasible:
      return "feasible";
    case ServingVerdict::invalid:
      return "invalid";
    case ServingVerdict::unsupported:
      return "unsupported";
    case ServingVerdict::kv_overflow:
      return "kv_overflow";
    case ServingVerdict::non_finite:
      return "non_finite";
    case ServingVerdict::slo:
      return "slo";
  }
  return "invalid";
}

nlohmann::json serve_record_json(const Session& session, const ServeResult& result, const ServeRecord& r) {
  nlohmann::json j = config_json(r.config, session.machine());
  const bool timed = r.verdict != ServingVerdict::invalid;
  const auto num = [&](double v) { return json_number(timed ? v : NAN); };
  const ServingMetrics& mt = r.metrics;
  j["batch"] = r.point.batch;
  j["token_budget_tokens"] = r.point.token_budget;
  if (session.scenario().serving.speculative.given) {
    // The point's speculative decoding (docs/physics.md §12.8): k, E, the geometric rate (null: a
    // table by position).
    j["draft_tokens"] = r.point.speculative_tokens;
    j["tokens_per_verify"] = r.point.tokens_per_verify;
    j["acceptance"] = r.acceptance >= 0 ? nlohmann::json(r.acceptance) : nlohmann::json(nullptr);
  }
  j["replicas"] = r.replicas;
  j["pes"] = r.pes;
  j["ttft_s"] = num(mt.ttft_s);
  j["tpot_s"] = num(mt.tpot_s);
  j["tpot_tail_s"] = num(mt.tpot_tail_s);
  j["e2e_s"] = num(mt.e2e_s);
  j["tokens_per_s"] = num(r.tokens_per_s);
  j["tokens_per_s_per_pe"] = num(r.tokens_per_s_per_pe);
  j["tokens_per_s_per_user"] = num(r.tokens_per_s_per_user);
  // The error band next to each predicted latency and throughput (docs/report.md "Error bands").
  const Band band = session_band(session);
  j["ttft_band"] = band_json(band, BandQuantity::latency, timed ? mt.ttft_s : NAN);
  j["tpot_band"] = band_json(band, BandQuantity::latency, timed ? mt.tpot_s : NAN);
  j["e2e_band"] = band_json(band, BandQuantity::latency, timed ? mt.e2e_s : NAN);
  j["tokens_per_s_band"] = band_json(band, BandQuantity::throughput, timed ? r.tokens_per_s : NAN);
  j["tokens_per_s_per_pe_band"] =
      band_json(band, BandQuantity::throughput, timed ? r.tokens_per_s_per_pe : NAN);
  j["tokens_per_s_per_user_band"] =
      band_json(band, BandQuantity::throughput, timed ? r.tokens_per_s_per_user : NAN);
  j["requests_per_s"] = num(static_cast<double>(r.replicas) * mt.requests_per_s);
  j["prefill_time_share"] = num(mt.prefill_time_share);
  j["max_batch"] = mt.max_batch;
  j["chunk_tokens"] = mt.chunk;
  j["chunk_iterations"] = mt.chunk_iterations;
  j["kv_tokens_peak"] = num(mt.kv_tokens_peak);
  j["kv_tokens_mean"] = num(mt.kv_tokens_mean);
  j["kv_fits"] = mt.kv_fits;
  nlohmann::json obj = nlohmann::json::object();
  for (std::size_t i = 0; i < result.objectives.size(); ++i)
    obj[objective_key(objective_info(result.objectives[i]))] =
        json_number(r.runnable ? r.objectives[i] : NAN);
  j["objectives"] = obj;
  j["weights_bytes"] = num(r.weights_bytes);
  j["kv_bytes"] = num(r.kv_bytes);
  j["used_bytes"] = num(r.used_bytes);
  j["budget_bytes"] = num(r.budget_bytes);
  j["runnable"] = r.runnable;
  j["feasible"] = r.feasible;
  j["verdict"] = serving_verdict_name(r.verdict);
  j["slo_ratio"] = json_number(r.runnable ? r.slo_ratio : NAN);
  j["reason"] = r.reason.empty() ? serve_record_reason(session, r) : r.reason;
  return j;
}

// serving.speculative as simulated (docs/physics.md §12.8), with the draft lengths and rates the
// sweep searched (each point names its own): null without it.
nlohmann::json speculative_json(const SpeculativeSpec& p, const Sweep& sweep) {
  if (!p.given) return nullptr;
  return {
      {"method", speculative_method_name(p.method)},
      {"draft_model", p.draft_model ? nlohmann::json(p.draft_model->name) : nlohmann::json(nullptr)},
      {"steps", sweep.serving_speculative_steps.empty() ? nlohmann::json(p.steps)
                                                        : nlohmann::json(sweep.serving_speculative_steps)},
      {"acceptance", !sweep.serving_acceptance.empty() ? nlohmann::json(sweep.serving_acceptance)
                     : p.acceptance >= 0               ? nlohmann::json(p.acceptance)
                                                       : nlohmann::json(nullptr)},
      {"acceptance_by_position", p.acceptance_by_position},
      {"tokens_per_verify", sweep.serving_speculative_steps.empty() && sweep.serving_acceptance.empty()
                                ? nlohmann::json(p.tokens_per_verify())
                                : nlohmann::json(nullptr)}};
}

nlohmann::json serve_json(const Session& session, const ServeResult& res) {
  const Scenario& s = session.scenario();
  const MachineSpec& m = session.machine();
  const ServeCounts& c = res.counts;
  nlohmann::json j;
  j["scenario"] = s.name;
  j["version"] = kVersion;
  j["model"] = s.model.name;
  j["machine"] = {{"name", m.name}, {"pe", m.pe.name}, {"pes", m.total_pes()}};
  j["workload"] = {{"mode", "serve"},
                   {"input_tokens", s.workload.input},
                   {"output_tokens", s.workload.output},
                   {"scope", s.workload.scope == Scope::attention ? "attention" : "full"}};
  j["slo"] = slo_json(s.serving.slo);
  j["band"] = band_summary_json(session_band(session));
  j["max_pes"] = res.max_pes > 0 ? nlohmann::json(res.max_pes) : nlohmann::json(nullptr);
  j["speculative"] = speculative_json(s.serving.speculative, s.sweep);
  nlohmann::json objectives = nlohmann::json::array();
  for (const PluginChoice& o : s.plugins.objectives) objectives.push_back(choice_json(o));
  nlohmann::json lat = nlohmann::json::array();
  for (const PluginChoice& l : s.plugins.latency) lat.push_back(choice_json(l));
  j["plugins"] = {{"serving", choice_json(s.plugins.serving)},
                  {"latency", session.latency_name()},
                  {"latency_models", lat},
                  {"memory", choice_json(s.plugins.memory)},
                  {"objectives", objectives},
                  {"scheduler", s.plugins.scheduler.name.empty() ? nlohmann::json(nullptr)
                                                                 : choice_json(s.plugins.scheduler)}};
  j["objectives"] = serve_axes_json(res.axes);
  if (s.framework.set) {
    j["framework"] = serving_stack_json(s, &c);
    // The engine's KV pool of the best configuration (docs/physics.md §10.1), in SI.
    if (const EngineKvNote note = serve_point_notes(session, res).best; note.shown) {
      const EngineKvCapacity& cap = note.cap;
      j["framework"]["kv_capacity"] = {{"rule", session.evaluator().engine_kv().label},
                                       {"tokens", cap.tokens},
                                       {"block_tokens", cap.block},
                                       {"memory_bytes", cap.memory_bytes},
                                       {"memory_fraction", cap.fraction},
                                       {"weights_bytes", cap.weights_bytes},
                                       {"activation_bytes", cap.activation_bytes},
                                       {"other_bytes", cap.other_bytes},
                                       {"kv_bytes_per_token", cap.kv_bytes_per_token},
                                       {"profile_tokens", cap.profile_tokens},
                                       {"sampled_sequences", cap.sampled_sequences},
                                       {"max_batch", note.kv_max_batch}};
    }
  }
  j["counts"] = {{"enumerated", c.enumerated},
                 {"configurations", c.configurations},
                 {"over_pe_budget", c.over_budget},
                 {"serving_points", c.points},
                 {"evaluated", c.evaluated},
                 {"runnable", c.runnable},
                 {"within_slo", c.within_slo},
                 {"infeasible",
                  {{"invalid", c.invalid},
                   {"unsupported", c.unsupported},
                   {"kv_overflow", c.kv_overflow},
                   {"non_finite", c.non_finite},
                   {"slo", c.slo_miss}}}};
  j["best"] = res.best() ? serve_record_json(session, res, *res.best()) : nlohmann::json(nullptr);
  nlohmann::json frontier = nlohmann::json::array();
  for (const ServeRecord& r : res.frontier) frontier.push_back(serve_record_json(session, res, r));
  name_serve_dp_groups(frontier, res, res.frontier);
  j["frontier"] = frontier;
  nlohmann::json top = nlohmann::json::array();
  for (const ServeRecord& r : res.top) top.push_back(serve_record_json(session, res, r));
  name_serve_dp_groups(top, res, res.top);
  j["top"] = top;
  j["closest_miss"] =
      res.closest_miss ? serve_record_json(session, res, *res.closest_miss) : nlohmann::json(nullptr);
  return j;
}

}  // namespace tessera
