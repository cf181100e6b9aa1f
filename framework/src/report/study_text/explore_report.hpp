#pragma once
// `tessera explore`'s text: the hardware grid's table (each point's best configuration, latency,
// cost, what the search evaluated, the Pareto mark) and the hardware ranking, in human units
// (its JSON document: studies/documents/explore_document.hpp).
#include <ostream>

#include "analysis/explore/exploration.hpp"
#include "studies/documents/explore_document.hpp"  // explore_json
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// width > 0: the grid's table fits it (TextTable::print).
TESSERA_API void print_explore_text(std::ostream& os, const StudyDescription& study,
                                    const ExploreResult& result, std::size_t width = 0);

}  // namespace tessera
