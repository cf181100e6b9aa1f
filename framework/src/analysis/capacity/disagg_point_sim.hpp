#pragma once
// The best pair of the disaggregated study simulated under the scenario's request stream
// (docs/physics.md §12.5 "Disaggregated pools"): x prefill instances of the pair's prefill
// configuration and y decode instances of its decode one, each dp replica an engine; the prefill
// replicas run up to the pair's prefill batch of whole prompts (as the study times them), the
// decode replicas up to its decode batch; each replica's KV blocks as the aggregated simulation
// finds them (configuration_sim.hpp, replica_kv); the KV transfer as the study's
// (physics/kv_transfer.hpp: kv_transfer over the pair's link, exposed_transfer_s with the
// scenario's overlap).
#include "analysis/capacity/simulated_point.hpp"
#include "analysis/requests/disagg_sim.hpp"
#include "analysis/serving/disagg_study.hpp"
#include "eval/session.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

struct SimulatedPair {
  DisaggPair pair;
  ReplicaKv prefill_kv, decode_kv;
  EngineLimits prefill_limits, decode_limits;
  bool prefix_caching = false;  // the scenario's engine caches prefixes (not simulated for pools)
  SimResult result;
};

// `pair` (of the study run on `prefill` and `decode`, the pools' sessions: pool_sessions) under
// `spec`'s stream. `options`' exact, memoize, slo and on_request are the caller's; the rest is
// set here. Throws InputError when a configuration's layout is not valid.
TESSERA_API SimulatedPair simulate_pair(const Session& prefill, const Session& decode, const DisaggPair& pair,
                                        const RequestsSpec& spec, SimOptions options = {});

}  // namespace tessera::requests
