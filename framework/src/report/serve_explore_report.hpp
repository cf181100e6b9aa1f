#pragma once
// Reports of `tessera explore` on a serve scenario (analysis/serve_exploration.hpp): the hardware
// points ranked by the best tokens/s/PE within the SLO, each with its best aggregated point (and
// machine), its best disaggregated pair, the gain and the pools; text in human units, JSON in SI.
#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/serve_exploration.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// scenario, version, mode "serve", axes (path, unit, values), points (grid order: hardware,
// aggregated {tokens_per_s_per_pe, machine, config}, disaggregated (its best pair or null),
// gain, best), ranking (point indices, best first).
TESSERA_API nlohmann::json serve_explore_json(const Session& session, const ServeExploreResult& result);
TESSERA_API void print_serve_explore_text(std::ostream& os, const Session& session,
                                          const ServeExploreResult& result);

}  // namespace tessera
