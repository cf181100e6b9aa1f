#pragma once
// The disaggregated request simulation (docs/physics.md §12.5 "Disaggregated pools"): a prefill
// pool and a decode pool, each of replicas that are engines (replica.hpp) with their own queues,
// and the KV transfer between them.
//
// A request is routed (the scenario's router) to a prefill replica, which runs its prompt (FCFS,
// up to its sequence limit and token budget, KV admission by its blocks) and samples its first
// token. It is then routed to a decode replica, where it waits (FCFS) until that replica can
// reserve its prompt's KV blocks; its KV is then sent (TransferModel), the prefill replica's
// blocks freed when it has left. When the KV has arrived the first token reaches the client (TTFT)
// and the request joins the decode replica's batch (continuous batching, preemption as the engine
// does). The first token is the prefill's, delivered with the KV: SGLang's decode server
// pre-allocates the KV before the transfer and merges the received request into its running
// batch without a forward pass of its own (sglang/srt/disaggregation/decode.py, its request life
// cycle), and streams the tokens to the client. A request of one output token ends at the
// prefill. One simulation is single-threaded and deterministic.
#include <cstdint>
#include <functional>

#include "analysis/requests/request_sim.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera::requests {

// Seconds from a transfer's start until the decode replica holds the KV of one of `requests`
// prompts (mean `tokens` tokens) that one prefill iteration of `prefill_s` seconds finished and
// that are sent together; `overlapped`: the transfer started as the prefill ended (a layer-wise
// transfer then overlaps the prefill), else it starts later and is sent whole.
using TransferTime =
    std::function<double(std::int64_t tokens, std::int64_t requests, double prefill_s, bool overlapped)>;

struct DisaggSimOptions {
  // The prefill pool (limits, replicas: instances x dp), the router of both pools, the SLOs,
  // exact, memoize and on_request.
  SimOptions prefill;
  EngineLimits decode_limits;
  std::int64_t decode_replicas = 1;
  TransferTime transfer;
};

// Runs `stream` through the pools, the prefill iterations timed by `prefill_timer` and the decode
// ones by `decode_timer`. The result's disagg holds each pool's figures and the transfers; its
// KV occupancy is both pools' blocks together, its queue depth every request waiting in either.
// Throws std::invalid_argument as simulate() does.
TESSERA_API SimResult simulate_disaggregated(const StreamSpec& stream, StepTimer& prefill_timer,
                                             StepTimer& decode_timer, const DisaggSimOptions& opts);

}  // namespace tessera::requests
