#pragma once
// Reports of `tessera explore`: the hardware grid's table (each point's best configuration,
// latency, cost, what the search evaluated, the Pareto mark) and the hardware ranking, as text
// in human units and as JSON in SI units.
#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/exploration.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// scenario, search, axes (path, unit, values), points (hardware, feasible, cost_USD, search
// counts, pareto, best), pareto (point indices), hardware_sensitivity.
TESSERA_API nlohmann::json explore_json(const Session& session, const ExploreResult& result);
// width > 0: the grid's table fits it (TextTable::print).
TESSERA_API void print_explore_text(std::ostream& os, const Session& session, const ExploreResult& result,
                                    std::size_t width = 0);

}  // namespace tessera
