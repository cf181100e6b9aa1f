#pragma once
// `tessera compare --json`, in SI units: each model's optimum and its rank under the others, the
// optima stage by stage, Kendall tau-b between every pair of rankings, where the winner changes,
// and the points of the rank-vs-rank scatter.
#include <nlohmann/json.hpp>

#include "analysis/search/compare.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// scenario, models, objective, counts, optima (with rank_under), stages, kendall, winner_changes.
TESSERA_API nlohmann::json compare_json(const CompareResult& r, const Session& s);
}  // namespace tessera
