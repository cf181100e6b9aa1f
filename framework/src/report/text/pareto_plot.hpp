#pragma once
// The Pareto frontier of `tessera run` and `tessera serve` drawn in the terminal
// (text_scatter.hpp): run's first objective against the PEs a configuration uses over the
// sampled evaluated configurations (SearchOptions::points), serve's tokens/s/PE against
// tokens/s/user over the sampled runnable points with the SLO's floor on tokens/s/user.
#include <cstddef>
#include <string>

#include "analysis/search/search_driver.hpp"
#include "analysis/serving/serve_study.hpp"
#include "studies/study_description.hpp"
#include "tessera/export.hpp"

namespace tessera {

// "" when there is nothing feasible to draw. width: display columns of every line.
TESSERA_API std::string search_pareto_plot(const StudyDescription& study, const SearchResult& result,
                                           std::size_t width, bool unicode = true);
TESSERA_API std::string serve_pareto_plot(const StudyDescription& study, const ServeResult& result,
                                          std::size_t width, bool unicode = true);

}  // namespace tessera
