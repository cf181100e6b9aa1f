#pragma once
// Reports of a serving study (`tessera serve`): text in human units that fits a terminal (at
// most 100 columns), JSON and CSV in SI units with the unit in the key or column name.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "analysis/serving/serve_study.hpp"
#include "studies/documents/serve_document.hpp"  // serve_json, serving_verdict_name
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// `tessera serve --csv`, streamed: the header line, then one line per evaluated serving point.
TESSERA_API void write_serve_csv_header(std::ostream& os, const StudyDescription& study);
TESSERA_API void write_serve_csv_row(std::ostream& os, const StudyDescription& study, const ServeRecord& r);

// The text report: scenario, workload, SLO, budget, counts, then the best point, the
// frontier and the top N — or, when nothing meets the SLO, the closest miss. Its tables are at
// most 100 columns wide, or `width` when it is not 0.
// `notes`: what the study computed for its points (studies/study_description.hpp's serve_point_notes).
TESSERA_API void print_serve_text(std::ostream& os, const StudyDescription& study, const ServeResult& result,
                                  const ServePointNotes& notes, std::size_t frontier_rows = 20,
                                  std::size_t width = 0);

}  // namespace tessera
