#pragma once
// The `simulation` member of `serve --json` (docs/report.md "Serving"): the best serving point
// under the scenario's request stream (docs/physics.md §12.5) — the stream, the engine limits,
// and each latency's mean and percentiles with their 95 % half-widths, in SI units named in the
// keys.
#include <nlohmann/json.hpp>

#include "analysis/requests/simulated_point.hpp"
#include "scenario/request_spec.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera::studies {

TESSERA_API nlohmann::json simulation_json(const requests::SimulatedPoint& s, const RequestsSpec& spec,
                                           const MachineSpec& machine);

}  // namespace tessera::studies
