#pragma once
// The `capacity` member of `serve --json` (docs/report.md "Capacity"): the analytical top K
// confirmed by simulation (analysis/capacity/capacity_study.hpp) — the probes' settings, each
// finalist's analytical and simulated rank, its capacity at the SLOs and every probe of its
// search, and the disaggregated best pair's; SI units named in the keys.
#include <nlohmann/json.hpp>

#include "analysis/capacity/capacity_study.hpp"
#include "eval/session.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

// One search: {found, stop, <load key>, upper, requests_per_s, output_tokens_per_s,
// goodput_requests_per_s, ttft_p99_s, tpot_p99_s, e2e_p99_s, binding, probes: [...]}.
TESSERA_API nlohmann::json capacity_json(const requests::Capacity& c, const std::vector<SloTarget>& slo);

TESSERA_API nlohmann::json capacity_study_json(const Session& session, const requests::CapacityStudy& study,
                                               const RequestsSpec& spec);

}  // namespace tessera::studies
