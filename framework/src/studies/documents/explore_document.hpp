#pragma once
// `tessera explore`'s --json documents, in SI units: the hardware grid of a step scenario
// (analysis/explore/exploration.hpp) and of a serve scenario (analysis/explore/serve_exploration.hpp); their
// text: report/study_text/explore_report.hpp, report/study_text/serve_explore_report.hpp.
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/explore/exploration.hpp"
#include "analysis/explore/serve_exploration.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera {

// scenario, search, axes (path, unit, values), points (hardware, feasible, cost_USD, search
// counts, pareto, best), pareto (point indices), hardware_sensitivity.
TESSERA_API nlohmann::json explore_json(const Session& session, const ExploreResult& result);
// scenario, version, mode "serve", axes (path, unit, values), points (grid order: hardware,
// aggregated {tokens_per_s_per_pe, machine, config}, disaggregated (its best pair or null),
// gain, best), ranking (point indices, best first).
TESSERA_API nlohmann::json serve_explore_json(const Session& session, const ServeExploreResult& result);
// A serving point's parallelism as the serve exploration names it: "tp8 pp1 dp1" (cp and ep
// when not 1), in the JSON and the text alike.
TESSERA_API std::string serve_explore_knobs(const ParallelConfig& c);

}  // namespace tessera
