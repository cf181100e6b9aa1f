#pragma once
// `tessera sensitivity` on a serve scenario as text (human units): the best point within the SLO,
// each parallelism knob's sweep (best tokens/s/PE within the SLO per value, or why none is), the
// elasticities ranked.
#include <ostream>

#include "analysis/serving/serve_sensitivity.hpp"
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API void print_serve_sensitivity_text(std::ostream& os, const StudyDescription& described,
                                              const ServeSensitivityStudy& study, std::size_t width = 0);

}  // namespace tessera
