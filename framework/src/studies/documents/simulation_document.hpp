#pragma once
// The `simulation` member of `serve --json` (docs/report.md "Serving"): the best serving point
// under the scenario's request stream (docs/physics.md §12.5) — the stream, the engine limits,
// and each latency's mean and percentiles with their 95 % half-widths, in SI units named in the
// keys.
#include <nlohmann/json.hpp>

#include "analysis/requests/disagg_point_sim.hpp"
#include "analysis/requests/simulated_point.hpp"
#include "scenario/request_spec.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera::studies {

TESSERA_API nlohmann::json simulation_json(const requests::SimulatedPoint& s, const RequestsSpec& spec,
                                           const MachineSpec& machine);

// `simulation_disaggregated`: the best disaggregated pair under the same stream — each pool's
// configuration, instances, replica KV and figures, the same latency and throughput members, the
// KV transfers (kv_transfer, kv_transfer_wait) and the pair's steady-state rate beside.
TESSERA_API nlohmann::json disagg_simulation_json(const requests::SimulatedPair& s, const RequestsSpec& spec,
                                                  const MachineSpec& prefill_machine,
                                                  const MachineSpec& decode_machine);

}  // namespace tessera::studies
