// `tessera sensitivity --json`: sensitivity_document.hpp.
#include "studies/documents/sensitivity_document.hpp"

#include "analysis/calibration/error_bands.hpp"
#include "studies/documents/search_document.hpp"  // record_json
#include "studies/json/band_json.hpp"
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

}  // namespace tessera
