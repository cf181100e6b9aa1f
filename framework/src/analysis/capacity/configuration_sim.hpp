#pragma once
// The request simulation of one configuration of a session at one serving point
// (docs/physics.md §12.5 "A configuration"): its dp groups are the replicas, the serving point's
// batch the engine's sequence limit and its token budget the batched-token limit (0: prompts
// whole), each replica's KV blocks the engine's (a framework's KV rule, eval/engine_kv.hpp) or,
// without a framework, what the memory plugin admits beside the weights, in 16-token blocks
// (vLLM's default block size); iterations timed through the host's StepTimer.
#include <cstdint>
#include <functional>

#include "analysis/capacity/simulated_point.hpp"
#include "analysis/requests/request_sim.hpp"
#include "eval/session.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera::requests {

// The replica KV of configuration `c` (its own layout) at `token_budget` (a framework rule's
// profile pass) with at most `max_sequences` in flight (the engine's max_num_seqs). Without a
// rule, the largest context one sequence may hold beside the weights (the memory plugin's
// kv_fits, by bisection), in whole blocks.
TESSERA_API ReplicaKv replica_kv(const Evaluator& ev, const ParallelConfig& c, const Layout& layout,
                                 StepTimer& timer, std::int64_t token_budget, std::int64_t max_sequences);

// The best point of a serving study simulated under the scenario's request stream, each of
// `slo`'s TTFT, TPOT and E2E targets checked against the statistic it binds (slo_check.hpp);
// `on_request` (SimOptions::on_request) sees every request as it finishes.
TESSERA_API SimulatedPoint simulate_point(const Session& session, const ParallelConfig& c,
                                          const ServingPoint& point, const RequestsSpec& spec,
                                          const ServingSlo& slo,
                                          std::function<void(const RequestOutcome&)> on_request = {});

// `spec`'s stream through configuration `c` at `point`. `options`' limits are set here; its
// other fields (exact, memoize, slo, on_request) are the caller's. Throws InputError when the
// configuration's layout is not valid.
TESSERA_API SimResult simulate_configuration(const Session& session, const ParallelConfig& c,
                                             const ServingPoint& point, const RequestsSpec& spec,
                                             SimOptions options = {}, ReplicaKv* kv_out = nullptr);

}  // namespace tessera::requests
