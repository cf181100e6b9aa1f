#pragma once
// `tessera serve --json`'s `simulation` (a scenario with serving.requests) as charts
// (docs/report.md "Request simulation"): the latency CDFs of TTFT, TPOT and end to end (each
// metric's cdf_s, P1..P99, and max_s), and the queue depth and KV occupancy over the run
// (time_series: each bin's time-weighted mean and its peak). None without `simulation`.
#include <vector>

#include <nlohmann/json.hpp>

#include "report/charts/vega_specs.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API std::vector<ChartSpec> simulation_charts(const nlohmann::json& result);

}  // namespace tessera
