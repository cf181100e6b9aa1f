#pragma once
// `tessera serve --json`'s `capacity` (the analytical top K confirmed by simulation) as charts
// (docs/report.md "Capacity"): P99 TTFT and P99 TPOT against the offered load, one line per
// finalist through the probes of its search, the SLO's limit dashed; and the analytical
// tokens/s/PE of each finalist against the simulated one at its capacity, beside the line of
// agreement. None without `capacity` or without a finalist.
#include <vector>

#include <nlohmann/json.hpp>

#include "report/charts/vega_specs.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API std::vector<ChartSpec> capacity_charts(const nlohmann::json& result);

}  // namespace tessera
