#include "report/sensitivity_report.hpp"

#include <cmath>

#include "analysis/error_bands.hpp"
#include "report/band_text.hpp"
#include "report/search_report.hpp"
#include "report/text_table.hpp"
#include "studies/documents/json_number.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {
namespace {}  // namespace

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

void print_hardware(std::ostream& os, const std::vector<HardwareElasticity>& hw, std::size_t width) {
  TextTable t({"#", "knob", "value", "elasticity (fixed)", "elasticity (re-optimised)", "note"},
              {TextTable::Align::right, TextTable::Align::left, TextTable::Align::right,
               TextTable::Align::right, TextTable::Align::right, TextTable::Align::left});
  t.set_fit(3, {0, "fixed", false, false});
  t.set_fit(4, {0, "re-optimised", false, false});
  t.set_fit(5, {1, "", false, false});
  std::size_t i = 0;
  for (const auto& h : hw)
    t.add_row({std::to_string(++i), h.label, format_quantity(h.value, h.dimension),
               std::isfinite(h.elasticity_fixed) ? fixed(h.elasticity_fixed, 3) : "—",
               std::isfinite(h.elasticity_reopt) ? fixed(h.elasticity_reopt, 3) : "—", h.note});
  t.print(os, "  ", width);
}

nlohmann::json sensitivity_json(const Session& session, const SensitivityStudy& study) {
  nlohmann::json j;
  j["scenario"] = session.scenario().name;
  j["version"] = kVersion;
  j["model"] = session.model().name;  // the HTML report's header (docs/report.md)
  j["machine"] = session.machine().name;
  j["latency_model"] = session.latency_name();
  j["search"] = session.scenario().plugins.search.name;
  j["best"] = record_json(session, study.objectives, study.best);
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

void print_sensitivity_text(std::ostream& os, const Session& session, const SensitivityStudy& study,
                            std::size_t width) {
  const ConfigRecord& best = study.best;
  print_scenario_header(os, session);
  const Band band = session_band(session);
  os << "best       " << short_config(session.machine(), best.config) << ", latency "
     << format_quantity(best.latency_s, Dimension::time) << band_suffix(band, BandQuantity::latency) << "\n";
  os << "band       " << wrap_words(band_statement(band), 100, "           ")
     << (band.has_band() ? " (the band of every latency below)" : "") << "\n";
  for (const auto& k : study.parallelism) {
    os << "\n" << k.knob << " (best " << k.baseline << ")\n";
    TextTable t({k.knob, "latency", "vs best", "feasible", "reason"},
                {TextTable::Align::right, TextTable::Align::right, TextTable::Align::right,
                 TextTable::Align::left, TextTable::Align::left});
    t.set_fit(4, {1, "", false, false});  // the reason: the first to go
    for (std::size_t i = 0; i < k.values.size(); ++i) {
      const auto& r = k.records[i];
      t.add_row({std::to_string(k.values[i]), r.valid ? format_quantity(r.latency_s, Dimension::time) : "—",
                 r.valid ? fixed(r.latency_s / best.latency_s, 3) + "×" : "—", r.feasible ? "yes" : "no",
                 r.reason});
    }
    t.print(os, "  ", width);
  }
  if (study.has_hardware) {
    os << "\nhardware elasticities d ln(latency)/d ln(knob), ±10 %, ranked by |re-optimised|\n";
    print_hardware(os, study.hardware, width);
  }
}

}  // namespace tessera
