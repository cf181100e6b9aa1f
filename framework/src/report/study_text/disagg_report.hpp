#pragma once
// Reports of the disaggregated study beside the aggregated one (`tessera serve` with
// serving.disaggregated): its counts, best pair, frontier and the gain of disaggregation at the
// SLO (best tokens/s/PE within it, disaggregated / aggregated). Text in human units, JSON in SI.
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "studies/documents/disagg_document.hpp"  // disagg_json and the names it shares
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// `notes`: what the study computed for it (studies/study_description.hpp's disagg_notes).
TESSERA_API void print_disagg_text(std::ostream& os, const StudyDescription& study, const DisaggStudy& d,
                                   const DisaggNotes& notes, const ServeResult& agg,
                                   std::size_t frontier_rows = 20, const std::vector<AggregatedOn>& also = {},
                                   std::size_t width = 0);

}  // namespace tessera
