#pragma once
// Reports of `tessera compare`: each model's optimum and its rank under the others, the optima
// stage by stage, Kendall tau-b between every pair of rankings and where the winner changes; as
// text tables in human units and as JSON in SI units.
#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/search/compare.hpp"
#include "studies/documents/compare_document.hpp"  // compare_json
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// width > 0: the tables fit it (TextTable::print), the optima in short form.
TESSERA_API void print_compare_text(std::ostream& os, const CompareResult& r, const StudyDescription& s,
                                    std::size_t width = 0);

}  // namespace tessera
