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

// `tessera explore --csv`: one row per hardware point, in the grid's order, as the study merges
// them (SI units, the unit in each column's name): its position, each axis's value, whether
// anything is feasible there, the best configuration's latency, its knobs, its cost and what
// the search evaluated.
TESSERA_API void write_explore_csv_header(std::ostream& os, const StudyDescription& study);
TESSERA_API void write_explore_csv_row(std::ostream& os, const StudyDescription& study,
                                       const ExplorePoint& p);

}  // namespace tessera
