#pragma once
// The preemption mode a simulated engine runs (docs/physics.md §12.5 "Preemption"):
// serving.requests.preemption when the scenario gives it, else its framework's
// (data/frameworks.yaml `preemption`), else recompute; under swap, the time to copy one KV block
// between a PE and host memory: the block's bytes at one PE (kv_transfer_bytes of block_tokens
// tokens over the configuration's distinct KV shards, physics/kv_transfer.hpp) over
// serving.requests.swap_bandwidth, plus swap_latency per iteration that swaps.
#include "analysis/requests/replica.hpp"
#include "eval/session.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera::requests {

// The scenario's mode (the key, the framework's, recompute).
TESSERA_API Preemption preemption_mode(const Session& session, const RequestsSpec& spec);

// The scheduling rules of the scenario's framework (data/frameworks.yaml `scheduler:`), else vLLM
// V1's.
TESSERA_API SchedulerRules scheduler_rules(const Session& session);

// Sets limits.rules (scheduler_rules), limits.policy (the scenario's scheduler plugin, if any),
// limits.preemption and, under swap, swap_block_s and swap_latency_s for configuration `c`
// (limits.block_tokens already set).
TESSERA_API void apply_preemption(const Session& session, const ParallelConfig& c, const RequestsSpec& spec,
                                  EngineLimits& limits);

}  // namespace tessera::requests
