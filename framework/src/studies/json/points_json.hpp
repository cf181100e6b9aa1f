#pragma once
// `--json`'s `points`: the evaluated configurations (run) or runnable serving points (serve)
// with their totals, for the HTML report's scatter (docs/report.md). Every one when the study
// evaluated no more than kMaxReportPoints, else a seeded reservoir sample of that many
// (`points_sampled: true`, `points_total` = how many there were, and `sampled: true` on each
// point of the sample).
#include <cstddef>

#include <nlohmann/json.hpp>

#include "analysis/search/search_driver.hpp"
#include "analysis/serving/serve_study.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The documented bound of `points` (docs/report.md).
inline constexpr std::size_t kMaxReportPoints = 5000;

// Adds points, points_total and points_sampled to `j` (a run's --json object).
TESSERA_API void add_search_points(nlohmann::json& j, const Session& session, const SearchResult& result);
// The same for a serve study's --json object.
TESSERA_API void add_serve_points(nlohmann::json& j, const Session& session, const ServeResult& result);

}  // namespace tessera
