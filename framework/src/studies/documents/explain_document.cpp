#include "studies/documents/explain_document.hpp"

#include <string>

#include "studies/documents/collective_document.hpp"
#include "studies/documents/explain_parts.hpp"
#include "studies/json/band_json.hpp"
#include "tessera/version.hpp"

namespace tessera {

namespace {

nlohmann::json units_used_json(const Evaluation& e, const MachineSpec& m) {
  nlohmann::json u = nlohmann::json::object();
  u[m.pe.name] = e.layout.units_used[0];
  for (std::size_t p = 1; p <= m.levels.size() && p < e.layout.units_used.size(); ++p)
    u[m.levels[p - 1].name] = e.layout.units_used[p];
  return u;
}

}  // namespace

nlohmann::json explain_json(const Session& session, const Evaluation& e) {
  const ModelSpec& model = session.model();
  const MachineSpec& machine = session.machine();
  nlohmann::json j;
  j["scenario"] = session.scenario().name;
  j["version"] = kVersion;
  j["latency_model"] = session.latency_name();
  if (!session.calibration_note().empty()) j["calibration"] = session.calibration_note();
  j["model"] = {{"name", model.name},
                {"params_total", params_total(model)},
                {"params_active", params_active(model)},
                {"parallel_block", model.parallel_block}};
  j["formats"] = explain_parts::formats_line(model);
  j["machine"] = machine.name;
  j["config"] = config_json(e.config, machine);
  j["valid"] = e.valid;
  j["placement_valid"] = e.valid;
  if (!e.valid) {
    j["reason"] = describe_invalid(e.layout.reason, model, machine, e.config);
    return j;
  }
  j["units_used"] = units_used_json(e, machine);
  nlohmann::json stages = nlohmann::json::array();
  const auto work = explain_parts::explained_work(session, e);
  std::size_t index = 0;
  for (const Stage& s : e.stages) {
    const StageWork* w = explain_parts::work_of(*work, s, index++);
    nlohmann::json row = {{"name", s.name},
                          {"block", stage_block_name(s.block)},
                          {"count", s.count},
                          {"flops", s.flops},
                          {"hbm_bytes", s.hbm_bytes},
                          {"comm_bytes", s.comm_bytes},
                          {"compute_s", s.compute_s},
                          {"memory_s", s.memory_s},
                          {"comm_s", s.comm_s},
                          {"visible_s", s.visible_s},
                          {"bound", bound_name(s.bound)}};
    if (explain_parts::overlapped_s(s) > 0) row["overlapped_s"] = explain_parts::overlapped_s(s);
    if (s.has_comm_algorithm) row["algorithm"] = stage_algorithm_label(s);
    if (s.source && *s.source) row["source"] = s.source;  // a model that mixes sources (latency/measured)
    if (w && w->comm_count > 0) row["collectives"] = stage_collectives_json(*w, s, machine);
    if (w && w->has_cp && w->cp.steps > 0)
      row["point_to_point"] = {
          {"messages", w->cp.steps},
          {"level", w->cp.link.level > 0 && w->cp.link.level <= static_cast<int>(machine.levels.size())
                        ? machine.levels[static_cast<std::size_t>(w->cp.link.level - 1)].name
                        : machine.pe.name},
          {"bytes", w->cp.msg_bytes},
          {"seconds", p2p_message_time(w->cp.link, machine, w->cp.msg_bytes,
                                       {s.comm_bw_efficiency, s.comm_extra_latency})}};
    stages.push_back(std::move(row));
  }
  j["stages"] = stages;
  if (const std::string note = explain_parts::chunk_note(session); !note.empty())
    j["collectives_note"] = note.substr(2);
  if (const std::string note = explain_parts::parallel_block_note(session, e); !note.empty())
    j["parallel_block_note"] = note;
  if (e.non_finite != NonFinite::none)
    j["reason"] = std::string("infeasible: non-finite ") + non_finite_name(e.non_finite);
  const MemoryUsage& m = e.memory;
  j["memory"] = {{"weights_bytes", m.weights_bytes},     {"kv_bytes", m.kv_bytes},
                 {"transient_bytes", m.transient_bytes}, {"used_bytes", m.used_bytes},
                 {"budget_bytes", m.budget_bytes},       {"fits_memory", m.fits}};
  const StepTotals& t = e.totals;
  j["totals"] = {{"latency_s", t.latency_s},
                 {"throughput_tok_s", t.throughput_tok_s},
                 {"pipeline_throughput_tok_s", t.pipeline_throughput_tok_s},
                 {"efficiency", t.efficiency},
                 {"compute_util", t.compute_util},
                 {"bw_util", t.bw_util},
                 {"pes", t.pes},
                 {"flops_all_pes", t.flops_all_pes},
                 {"redundant_flops", t.redundant_flops},
                 {"hbm_bytes_all_pes", t.hbm_bytes_all_pes},
                 {"link_bytes_all_pes", t.link_bytes_all_pes}};
  {
    const Band band = session_band(session);
    j["totals"]["latency_band"] = band_json(band, BandQuantity::latency, t.latency_s);
    j["totals"]["throughput_band"] = band_json(band, BandQuantity::throughput, t.throughput_tok_s);
    j["band"] = band_summary_json(band);
  }
  if (t.prefill_pipelined) j["totals"]["formula"] = explain_parts::ttft_formula();
  if (t.tier_count > 1) {  // a tier other than HBM served bytes (docs/physics.md §9)
    nlohmann::json tiers = nlohmann::json::array();
    for (int k = 0; k < t.tier_count; ++k) {
      const TierUse& u = t.tiers[static_cast<std::size_t>(k)];
      tiers.push_back({{"name", u.name},
                       {"bytes_all_pes", u.bytes_all_pes},
                       {"bandwidth_B_per_s", u.bandwidth},
                       {"util", u.util}});
    }
    j["totals"]["tiers"] = tiers;
  }
  nlohmann::json obj = nlohmann::json::object();
  const auto& slots = session.evaluator().objectives();
  for (std::size_t i = 0; i < slots.size(); ++i) obj[slots[i].name] = e.objectives[i];
  j["objectives"] = obj;
  return j;
}

}  // namespace tessera
