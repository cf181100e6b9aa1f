#pragma once
// Reports of `tessera sensitivity` (and the hardware ranking `tessera explore` shares): text
// tables in human units, JSON in SI units.
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "analysis/search/sensitivity.hpp"
#include "studies/documents/sensitivity_document.hpp"  // hardware_json, sensitivity_json
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The ranked elasticities (hardware_json) as a table: #, knob, value, elasticity (fixed), elasticity
// (re-optimised), note.
TESSERA_API void print_hardware(std::ostream& os, const std::vector<HardwareElasticity>& hw,
                                std::size_t width = 0);

// The scenario header, the best configuration, one table per parallelism knob, the ranking;
// the tables fitted to `width` columns (0 = as they are; the reasons and notes go first).
TESSERA_API void print_sensitivity_text(std::ostream& os, const StudyDescription& described,
                                        const SensitivityStudy& study, std::size_t width = 0);

}  // namespace tessera
