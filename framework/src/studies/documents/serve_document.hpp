#pragma once
// A serving study's JSON (`tessera serve --json`), in SI units with the unit in the key.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "analysis/serving/serve_study.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// "feasible", "invalid", "unsupported", "kv_overflow", "non_finite", "slo".
TESSERA_API const char* serving_verdict_name(ServingVerdict v);

// serving.slo as the documents record it: the bounds the steady state binds (SI), the targets.
TESSERA_API nlohmann::json slo_json(const ServingSlo& slo);
// One axis of a serving study's ranking (ServeResult::axes): name, direction, unit; and all of them.
TESSERA_API nlohmann::json serve_axis_json(const ServeAxis& axis);
TESSERA_API nlohmann::json serve_axes_json(const std::vector<ServeAxis>& axes);

// One serving point as JSON: knobs, point, replicas, PEs, metrics, objectives, verdict (SI).
TESSERA_API nlohmann::json serve_record_json(const Session& session, const ServeResult& result,
                                             const ServeRecord& r);
// `tessera serve --json`: scenario, version, model, machine, workload, SLO, plugins, counts,
// best, frontier, top, closest_miss.
TESSERA_API nlohmann::json serve_json(const Session& session, const ServeResult& result);

// The groups of `rows` that differ only in dp (studies/json/dp_groups.hpp): the knobs but
// dp, the serving point, and every axis and objective value but the PE count's exactly equal.
TESSERA_API std::vector<std::vector<std::size_t>> serve_dp_groups(const ServeResult& res,
                                                                  const std::vector<ServeRecord>& rows);

}  // namespace tessera
