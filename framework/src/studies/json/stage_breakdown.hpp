#pragma once
// The stage breakdowns `--json` carries for the HTML report's breakdown chart (docs/report.md
// "Fields --json gained for the report"):
// - `top[i].stages` and `best.stages` (run): per stage its occurrences and its compute, memory,
//   communication and visible (critical-path) times per occurrence, and what bounds it — the
//   numbers of `tessera explain --json`'s stages;
// - `breakdowns` (run and serve): for the best, the top N and the frontier (at most
//   kMaxBreakdowns configurations), keyed by the configuration's `id` in `points`, each stage's
//   visible time per occurrence split into compute_s, memory_s, communication_s and overhead_s
//   (studies/json/stage_parts.hpp, explain's decomposition); serve: the prefill of one prompt and the
//   decode step at the mean context, for the disaggregated frontier each pool's step.
// `id` is added to every entry of `best`, `pareto` / `frontier` and `top` (run: the evaluation
// position SearchPoint::key; serve: ServeRecord::key; disaggregated pairs: "disagg-I").
#include <cstddef>

#include <nlohmann/json.hpp>

#include "analysis/search/search_driver.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The documented bound on how many configurations carry a breakdown (best first, then the top
// N, then the frontier in its order; disaggregated pairs counted apart).
inline constexpr std::size_t kMaxBreakdowns = 100;

// The stages of one configuration (an array; empty when its layout is invalid).
TESSERA_API nlohmann::json stage_breakdown_json(const Session& session, const ParallelConfig& config);
// One step's stages as `breakdowns` holds them: name, count and the four parts per occurrence.
TESSERA_API nlohmann::json stage_parts_json(const StageList& stages);
// Adds `stages` to j["best"] and every j["top"][i], `id` to best / pareto / top, and
// `breakdowns` (a run's --json object, search_json's).
TESSERA_API void add_search_stages(nlohmann::json& j, const Session& session, const SearchResult& result);
// Adds `id` to best / frontier / top / closest_miss and `breakdowns` {prefill, decode} to a
// serve --json object (serve_json's), and with a disaggregated answer `id` to each
// j["disaggregated"]["frontier"][i] and j["disaggregated"]["breakdowns"].
TESSERA_API void add_serve_breakdowns(nlohmann::json& j, const Session& session, const ServingAnswer& answer);

}  // namespace tessera
