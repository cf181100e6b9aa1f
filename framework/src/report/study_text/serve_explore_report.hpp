#pragma once
// `tessera explore`'s text on a serve scenario (analysis/explore/serve_exploration.hpp): the hardware
// points ranked by the best tokens/s/PE within the SLO, each with its best aggregated point (and
// machine), its best disaggregated pair, the gain and the pools, in human units (its JSON
// document: studies/documents/explore_document.hpp).
#include <ostream>

#include "analysis/explore/serve_exploration.hpp"
#include "studies/documents/explore_document.hpp"  // serve_explore_json
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API void print_serve_explore_text(std::ostream& os, const StudyDescription& study,
                                          const ServeExploreResult& result);

}  // namespace tessera
