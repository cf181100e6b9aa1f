#pragma once
// The `--json` documents of `tessera run` and `tessera serve`, whole: what the CLI writes, the
// HTML report draws and the Python module returns (one definition for all three).
#include <nlohmann/json.hpp>

#include "analysis/search/search_driver.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// search_json with the points (SearchOptions::points kept them), the top N's stages and the
// breakdowns of the best, the top N and the frontier (studies/json/stage_breakdown.hpp).
TESSERA_API nlohmann::json run_document(const Session& session, const SearchResult& result);

// serve_json, the `disaggregated` member when the answer has one, the points and the breakdowns.
TESSERA_API nlohmann::json serve_document(const Session& session, const ServingAnswer& answer);

}  // namespace tessera
