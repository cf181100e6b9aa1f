// `tessera sensitivity --json`: sensitivity_document.hpp.
#include "studies/documents/sensitivity_document.hpp"

#include "analysis/calibration/error_bands.hpp"
#include "studies/documents/search_document.hpp"  // record_json
#include "studies/documents/serve_document.hpp"   // serve_record_json, slo_json, serve_axes_json
#include "studies/json/band_json.hpp"
#include "studies/json/config_json.hpp"
#include "studies/json/json_number.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {

nlohmann::json hardware_json(const std::vector<HardwareElasticity>& hw) {
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < hw.size(); ++i) {
    const auto& h = hw[i];
    a.push_back({{"rank", i + 1},
                 {"knob", h.path},
                 {"label", h.label},
                 {"value_si", h.value},
                 {"unit", si_unit(h.dimension)},
                 {"elasticity_fixed", json_number(h.elasticity_fixed)},
                 {"elasticity_reoptimised", json_number(h.elasticity_reopt)},
                 {"latency_minus_fixed_s", json_number(h.latency_minus_fixed)},
                 {"latency_plus_fixed_s", json_number(h.latency_plus_fixed)},
                 {"latency_minus_reoptimised_s", json_number(h.latency_minus_reopt)},
                 {"latency_plus_reoptimised_s", json_number(h.latency_plus_reopt)},
                 {"note", h.note}});
  }
  return a;
}

nlohmann::json sensitivity_json(const Session& session, const SensitivityStudy& study) {
  nlohmann::json j;
  j["scenario"] = session.scenario().name;
  j["version"] = kVersion;
  j["model"] = session.model().name;  // the HTML report's header (docs/report.md)
  j["machine"] = session.machine().name;
  j["latency_model"] = session.latency_name();
  j["search"] = session.scenario().plugins.search.name;
  j["best"] = record_json(session, objective_infos(study.objectives), study.best);
  j["band"] = band_summary_json(session_band(session));  // the band of every latency in the document
  if (study.has_parallelism) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& k : study.parallelism) {
      nlohmann::json rows = nlohmann::json::array();
      for (std::size_t i = 0; i < k.values.size(); ++i) {
        const auto& r = k.records[i];
        rows.push_back({{"value", k.values[i]},
                        {"latency_s", r.feasible ? json_number(r.latency_s) : nlohmann::json(nullptr)},
                        {"latency_if_it_fit_s", r.valid ? json_number(r.latency_s) : nlohmann::json(nullptr)},
                        {"feasible", r.feasible},
                        {"fits_memory", r.fits_memory},
                        {"placement_valid", r.placement_valid},
                        {"reason", r.reason}});
      }
      a.push_back({{"knob", k.knob}, {"baseline", k.baseline}, {"values", rows}});
    }
    j["parallelism"] = a;
  }
  if (study.has_hardware) j["hardware"] = hardware_json(study.hardware);
  return j;
}

// ---- a serve scenario's study ----
namespace {

nlohmann::json serve_response_json(const ServeResponse& r, const std::string& quantity) {
  return {{"elasticity", json_number(r.elasticity)},
          {quantity + "_minus", json_number(r.minus)},
          {quantity + "_plus", json_number(r.plus)}};
}

nlohmann::json serve_parallelism_json(const Session& session, const ServeSensitivityStudy& study) {
  const bool drafts = session.scenario().serving.speculative.given;
  nlohmann::json a = nlohmann::json::array();
  for (const ServeKnobSweep& k : study.parallelism) {
    nlohmann::json rows = nlohmann::json::array();
    for (const ServeKnobValue& v : k.values) {
      nlohmann::json row{
          {"value", v.value},
          {"feasible", v.feasible},
          {"pes", v.pes},
          {"tokens_per_s_per_pe", v.feasible ? json_number(v.tokens_per_s_per_pe) : nullptr},
          {"tokens_per_s_per_user", v.feasible ? json_number(v.tokens_per_s_per_user) : nullptr},
          {"batch", v.point.batch},
          {"token_budget_tokens", v.point.token_budget},
          {"reason", v.reason}};
      if (drafts) row["draft_tokens"] = v.point.speculative_tokens;
      rows.push_back(row);
    }
    a.push_back({{"knob", k.knob}, {"baseline", k.baseline}, {"values", rows}});
  }
  return a;
}

nlohmann::json serve_elasticities_json(const ServeSensitivityStudy& study) {
  const std::string axis = study.axes.empty() ? "" : study.axes.front().name;
  const bool other_axis = !axis.empty() && axis != "tokens_per_s_per_pe";
  nlohmann::json a = nlohmann::json::array();
  for (std::size_t i = 0; i < study.hardware.size(); ++i) {
    const ServeElasticity& h = study.hardware[i];
    nlohmann::json e{{"rank", i + 1},
                     {"knob", h.path},
                     {"label", h.label},
                     {"value_si", h.value},
                     {"unit", si_unit(h.dimension)},
                     {"elasticity_fixed", json_number(h.fixed.elasticity)},
                     {"elasticity_reoptimised", json_number(h.reoptimised.elasticity)},
                     {"tokens_per_s_per_pe_minus_fixed", json_number(h.fixed.minus)},
                     {"tokens_per_s_per_pe_plus_fixed", json_number(h.fixed.plus)},
                     {"tokens_per_s_per_pe_minus_reoptimised", json_number(h.reoptimised.minus)},
                     {"tokens_per_s_per_pe_plus_reoptimised", json_number(h.reoptimised.plus)},
                     {"note", h.note}};
    if (other_axis)
      e["axis"] = {{"name", axis},
                   {"unit", study.axes.front().unit},
                   {"fixed", serve_response_json(h.axis_fixed, "value")},
                   {"reoptimised", serve_response_json(h.axis_reoptimised, "value")}};
    if (study.disaggregated_tokens_per_s_per_pe)
      e["disaggregated"] = serve_response_json(h.disaggregated, "tokens_per_s_per_pe");
    a.push_back(e);
  }
  return a;
}

}  // namespace

nlohmann::json serve_sensitivity_json(const Session& session, const ServeSensitivityStudy& study) {
  const Scenario& s = session.scenario();
  nlohmann::json j;
  j["scenario"] = s.name;
  j["version"] = kVersion;
  j["model"] = session.model().name;  // the HTML report's header (docs/report.md)
  j["machine"] = session.machine().name;
  j["latency_model"] = session.latency_name();
  j["mode"] = "serve";  // not `workload.mode`: that names a serve result (report/charts/vega_specs.cpp)
  j["serving"] = {
      {"input_tokens", s.workload.input},
      {"output_tokens", s.workload.output},
      {"serving_model", s.plugins.serving.name},
      {"slo", slo_json(s.serving.slo)},
      {"max_pes", s.serving.max_pes > 0 ? nlohmann::json(s.serving.max_pes) : nlohmann::json(nullptr)},
      {"disaggregated", s.serving.disaggregated.enabled},
      {"requests_given", s.serving.requests.given}};
  j["objectives"] = serve_axes_json(study.axes);
  j["quantity"] = "tokens_per_s_per_pe";  // what the elasticities are of: the best within the SLO
  j["band"] = band_summary_json(session_band(session));
  ServeResult shape;
  shape.objectives = study.objectives;
  shape.axes = study.axes;
  j["best"] = serve_record_json(session, shape, study.best);
  j["best_tokens_per_s_per_pe"] = json_number(study.best_tokens_per_s_per_pe);
  j["disaggregated_tokens_per_s_per_pe"] = study.disaggregated_tokens_per_s_per_pe
                                               ? json_number(*study.disaggregated_tokens_per_s_per_pe)
                                               : nlohmann::json(nullptr);
  if (study.has_parallelism) j["parallelism"] = serve_parallelism_json(session, study);
  if (study.has_hardware) j["hardware"] = serve_elasticities_json(study);
  j["note"] = study.note;
  return j;
}

}  // namespace tessera
