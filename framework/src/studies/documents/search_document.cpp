// A search's JSON (`tessera run --json`): search_document.hpp.
#include "studies/documents/search_document.hpp"

#include <cmath>

#include "host/plugin_defaults.hpp"
#include "studies/json/band_json.hpp"
#include "studies/json/config_json.hpp"
#include "studies/json/dp_groups.hpp"
#include "studies/json/json_number.hpp"
#include "tessera/version.hpp"

namespace tessera {

std::string unit_suffix(const std::string& unit) {
  if (unit.empty()) return "";
  std::string s = "_";
  for (char ch : unit) s += (ch == '/' || ch == ' ') ? '_' : ch;
  return s;
}

std::string objective_key(const ObjectiveInfo& o) {
  // An objective whose name already says its unit is not suffixed twice.
  for (const char* name : plugin_defaults::kSelfDescribingObjectives)
    if (o.name == name) return o.name;
  return o.name + unit_suffix(o.unit);
}

std::string machine_level_name(const MachineSpec& m, std::size_t p) {
  return p == 0 ? m.pe.name : m.levels[p - 1].name;
}

// The groups of `rows` (indices into res.records) that differ only in dp (studies/json/dp_groups.hpp):
// the knobs but dp, the score and every objective but the PE count exactly equal.
std::vector<std::vector<std::size_t>> run_dp_groups(const SearchResult& res,
                                                    const std::vector<std::size_t>& rows) {
  const std::vector<ObjectiveInfo> infos = objective_infos(res.objectives);
  std::vector<DpGroupKey> keys;
  keys.reserve(rows.size());
  for (std::size_t i : rows) {
    const ConfigRecord& r = res.records[i];
    DpGroupKey k(r.config);
    k.add(r.score);
    if (res.objectives.empty()) k.add(r.latency_s);
    for (std::size_t o = 0; o < res.objectives.size(); ++o)
      if (!is_pe_count_objective(infos[o])) k.add(r.objectives[o]);
    keys.push_back(std::move(k));
  }
  return dp_groups(keys);
}

std::string short_config(const MachineSpec& m, const ParallelConfig& c) {
  std::string s = "cp=" + std::to_string(c.cp) + " tp=" + std::to_string(c.tp) +
                  " pp=" + std::to_string(c.pp) + " dp=" + std::to_string(c.dp) +
                  " ep=" + std::to_string(c.ep);
  s += std::string(" kv=") + kv_shard_mode_name(c.kv_shard_mode);
  s += std::string(" ffn=") + ffn_shard_scope_name(c.ffn_shard_scope);
  s += " tp@" + m.placement_name(c.tp_placement);
  s += " cp@" + m.placement_name(c.cp_placement);
  s += std::string(" ring=") + cp_ring_variant_name(c.cp_ring_variant);
  return s;
}

namespace {

nlohmann::json units_json(const MachineSpec& m, const ConfigRecord& r) {
  nlohmann::json u = nlohmann::json::object();
  for (std::size_t p = 0; p <= m.levels.size() && p < r.units_used.size(); ++p)
    u[machine_level_name(m, p)] = r.units_used[p];
  return u;
}

// A JSON list of `rows` with its groups named: the first row of a group of several lists every
// member (`dp_members`: dp and pes, in the list's order), the others name it (`dp_member_of`:
// its index in the list).
void name_run_dp_groups(nlohmann::json& list, const SearchResult& res, const std::vector<std::size_t>& rows) {
  for (const std::vector<std::size_t>& g : run_dp_groups(res, rows)) {
    if (g.size() < 2) continue;
    nlohmann::json members = nlohmann::json::array();
    for (std::size_t at : g) {
      const ConfigRecord& r = res.records[rows[at]];
      members.push_back({{"dp", r.config.dp}, {"pes", r.pes}, {"index", at}});
      if (at != g.front()) list[at]["dp_member_of"] = g.front();
    }
    list[g.front()]["dp_members"] = members;
  }
}

}  // namespace

nlohmann::json record_json(const Session& session, const std::vector<ObjectiveInfo>& objectives,
                           const ConfigRecord& r) {
  const MachineSpec& m = session.machine();
  nlohmann::json j = config_json(r.config, m);
  nlohmann::json obj = nlohmann::json::object();
  for (std::size_t i = 0; i < objectives.size(); ++i)
    obj[objective_key(objectives[i])] = json_number(r.valid ? r.objectives[i] : NAN);
  j["objectives"] = obj;
  j["latency_s"] = json_number(r.valid ? r.latency_s : NAN);
  j["throughput_tok_s"] = json_number(r.valid ? r.throughput_tok_s : NAN);
  j["pipeline_throughput_tok_s"] = json_number(r.valid ? r.pipeline_throughput_tok_s : NAN);
  const Band band = session_band(session);
  j["latency_band"] = band_json(band, BandQuantity::latency, r.valid ? r.latency_s : NAN);
  j["throughput_band"] = band_json(band, BandQuantity::throughput, r.valid ? r.throughput_tok_s : NAN);
  j["efficiency"] = json_number(r.valid ? r.efficiency : NAN);
  j["compute_util"] = json_number(r.valid ? r.compute_util : NAN);
  j["bw_util"] = json_number(r.valid ? r.bw_util : NAN);
  j["pes"] = r.pes;
  j["units_used"] = units_json(m, r);
  j["fits_memory"] = r.fits_memory;
  j["placement_valid"] = r.placement_valid;
  j["feasible"] = r.feasible;
  j["reason"] = r.reason;
  j["weights_bytes"] = json_number(r.valid ? r.weights_bytes : NAN);
  j["kv_bytes"] = json_number(r.valid ? r.kv_bytes : NAN);
  j["transient_bytes"] = json_number(r.valid ? r.transient_bytes : NAN);
  j["used_bytes"] = json_number(r.valid ? r.used_bytes : NAN);
  j["budget_bytes"] = json_number(r.valid ? r.budget_bytes : NAN);
  j["hbm_utilization"] = json_number(r.valid ? r.hbm_utilization : NAN);
  return j;
}

nlohmann::json search_json(const Session& session, const SearchResult& res) {
  const Scenario& s = session.scenario();
  nlohmann::json j;
  j["scenario"] = s.name;
  j["version"] = kVersion;
  j["model"] = s.model.name;
  j["machine"] = s.machine.name;
  j["latency_model"] = session.latency_name();
  j["band"] = band_summary_json(session_band(session));
  j["search"] = s.plugins.search.name;
  j["scope"] = s.workload.scope == Scope::attention ? "attention" : "full";
  j["counts"] = {{"enumerated", res.counts.enumerated},
                 {"valid", res.counts.valid},
                 {"feasible", res.counts.feasible},
                 {"evaluated", res.counts.evaluated}};
  if (res.counts.non_finite > 0) j["counts"]["non_finite"] = res.counts.non_finite;
  const std::vector<ObjectiveInfo> infos = objective_infos(res.objectives);
  nlohmann::json objs = nlohmann::json::array();
  for (const ObjectiveInfo& o : infos)
    objs.push_back({{"name", o.name},
                    {"direction", o.direction == Direction::maximize ? "maximize" : "minimize"},
                    {"unit", o.unit},
                    {"key", objective_key(o)}});
  j["objectives"] = objs;
  j["best"] = res.best ? record_json(session, infos, res.records[*res.best]) : nlohmann::json(nullptr);
  nlohmann::json pareto = nlohmann::json::array();
  for (std::size_t i : res.pareto) pareto.push_back(record_json(session, infos, res.records[i]));
  name_run_dp_groups(pareto, res, res.pareto);
  j["pareto"] = pareto;
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t i : res.top) top.push_back(record_json(session, infos, res.records[i]));
  name_run_dp_groups(top, res, res.top);
  j["top"] = top;
  return j;
}

}  // namespace tessera
