#pragma once
// `run --json`'s stage breakdown of the best and the top N (each entry's `stages`): per stage
// its occurrences and its compute, memory, communication and visible (critical-path) times per
// occurrence, and what bounds it (compute / memory / comm / overhead), for the HTML report's
// stacked bars (docs/report.md). The same numbers as `tessera explain --json`'s stages.
#include <nlohmann/json.hpp>

#include "eval/search_driver.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The stages of one configuration (an array; empty when its layout is invalid).
TESSERA_API nlohmann::json stage_breakdown_json(const Session& session, const ParallelConfig& config);
// Adds `stages` to j["best"] and every j["top"][i] (a run's --json object, search_json's).
TESSERA_API void add_search_stages(nlohmann::json& j, const Session& session, const SearchResult& result);

}  // namespace tessera
