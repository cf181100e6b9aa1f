#include "report/study_text/sensitivity_report.hpp"

#include <cmath>

#include "analysis/calibration/error_bands.hpp"
#include "report/study_text/search_report.hpp"
#include "report/text/band_text.hpp"
#include "report/text/text_table.hpp"
#include "studies/json/json_number.hpp"
#include "tessera/units.hpp"
#include "tessera/version.hpp"

namespace tessera {
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

void print_sensitivity_text(std::ostream& os, const StudyDescription& described,
                            const SensitivityStudy& study, std::size_t width) {
  const ConfigRecord& best = study.best;
  print_scenario_header(os, described);
  const Band& band = described.band;
  os << "best       " << short_config(described.machine(), best.config) << ", latency "
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
