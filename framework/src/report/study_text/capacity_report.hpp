#pragma once
// `tessera serve`'s capacity table (docs/report.md "Capacity"): the analytical top K confirmed
// by simulation (analysis/capacity/capacity_study.hpp) — a headline (the best configuration by
// simulated tokens/s/PE at the SLOs, and what the analytical model gave it), then one row per
// finalist: its simulated and analytical rank, its capacity (requests/s or clients), tokens/s/PE
// simulated and analytical and their difference, the SLO that stops a higher load and the
// probes run; a flag on finalists whose rank moved by more than kRankShiftFlag places.
#include <cstddef>
#include <ostream>

#include "analysis/capacity/capacity_study.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

TESSERA_API void print_capacity(std::ostream& os, const requests::CapacityStudy& study,
                                const RequestsSpec& spec, const MachineSpec& machine, std::size_t width);

// `serve --csv FILE.csv`'s sibling FILE.capacity.csv: a header, then one row per finalist in
// simulated rank (SI units named in the columns; cells empty where undefined), then the
// disaggregated best pair's (rank empty, `pool` disaggregated).
TESSERA_API void write_capacity_csv(std::ostream& os, const requests::CapacityStudy& study);

}  // namespace tessera
