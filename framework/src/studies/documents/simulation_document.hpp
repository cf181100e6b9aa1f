#pragma once
// The `simulation` member of `serve --json` (docs/report.md "Serving"): the best serving point
// under the scenario's request stream (docs/physics.md §12.5) — the stream, the engine limits,
// and each latency's mean and percentiles with their 95 % half-widths, in SI units named in the
// keys.
#include <nlohmann/json.hpp>

#include "analysis/capacity/disagg_point_sim.hpp"
#include "analysis/capacity/simulated_point.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera::studies {

// The request stream: arrival (and its rate, cv, concurrency or trace), seed, requests, warmup,
// router.
TESSERA_API nlohmann::json stream_json(const RequestsSpec& spec);

// What is simulated, before the simulation: {config, batch, token_budget, stream} (the same
// members as simulation_json's): the header of `--requests FILE`.
TESSERA_API nlohmann::json simulation_header_json(const ParallelConfig& config, const ServingPoint& point,
                                                  const RequestsSpec& spec, const MachineSpec& machine);

// With the outcome: also each metric's `cdf_s` (P1..P99) and the `time_series` of KV occupancy
// and queue depth (docs/report.md "Request simulation").
TESSERA_API nlohmann::json simulation_json(const requests::SimulatedPoint& s, const RequestsSpec& spec,
                                           const MachineSpec& machine);

// `simulation_disaggregated`: the best disaggregated pair under the same stream — each pool's
// configuration, instances, replica KV and figures, the same latency and throughput members, the
// KV transfers (kv_transfer, kv_transfer_wait) and the pair's steady-state rate beside.
TESSERA_API nlohmann::json disagg_simulation_json(const requests::SimulatedPair& s, const RequestsSpec& spec,
                                                  const MachineSpec& prefill_machine,
                                                  const MachineSpec& decode_machine);
// One simulated request as a JSON object (`--requests FILE.jsonl`'s lines, Python's
// serve(requests=True) records; docs/report.md "Request simulation"): id, arrival_s, replica,
// input_tokens, output_tokens, prefix_id (null: none), first_scheduled_s, first_token_s,
// finish_s, ttft_s, tpot_s (null for one output token), e2e_s, queue_s, max_gap_s, preemptions,
// measured (id >= warmup).
TESSERA_API nlohmann::json request_json(const requests::RequestOutcome& o, std::uint64_t warmup);

}  // namespace tessera::studies
