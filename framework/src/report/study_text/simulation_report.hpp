#pragma once
// `tessera serve`'s text for the best point simulated under the scenario's request stream
// (docs/physics.md §12.5): a percentile table (mean, P50, P90, P99 of TTFT, TPOT, ITL, end to
// end and queueing, with the 95 % half-widths of the means and P99s), then throughput, goodput,
// KV occupancy, queue depth and preemptions.
#include <cstddef>
#include <ostream>

#include "analysis/capacity/disagg_point_sim.hpp"
#include "analysis/capacity/simulated_point.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"

namespace tessera {

TESSERA_API void print_simulation(std::ostream& os, const requests::SimulatedPoint& s,
                                  const RequestsSpec& spec, std::size_t width);

// The best disaggregated pair simulated (analysis/capacity/disagg_point_sim.hpp): the same table,
// then the KV transfers and each pool's KV occupancy, queue and preemptions.
TESSERA_API void print_disagg_simulation(std::ostream& os, const requests::SimulatedPair& s,
                                         const RequestsSpec& spec, std::size_t width);
// `serve --csv`'s sibling FILE.simulation.csv (docs/report.md "Request simulation"): a header,
// then one row per metric (ttft, tpot, itl, e2e, queueing): count, the mean, P50, P90, P99 and
// their 95 % half-widths, and the max, in seconds (cells empty where undefined).
TESSERA_API void write_simulation_csv(std::ostream& os, const requests::SimResult& r);
// The header line alone: nothing was simulated (no serving point met the SLO: no best).
TESSERA_API void write_simulation_csv_header(std::ostream& os);

}  // namespace tessera
