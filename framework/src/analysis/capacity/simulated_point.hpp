#pragma once
// A serving point simulated under a request stream (analysis/capacity/configuration_sim.hpp):
// plain data, as the serve study returns it and the renderers read it.
#include <cstdint>
#include <string>

#include "analysis/requests/request_sim.hpp"
#include "tessera/kinds/serving_model.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera::requests {

// Tokens per KV block without a framework's rule (vLLM's default --block-size).
inline constexpr std::int64_t kDefaultBlockTokens = 16;

// The KV of one replica: blocks of `block_tokens`, and where the figure came from.
struct ReplicaKv {
  std::int64_t blocks = 0;
  std::int64_t block_tokens = kDefaultBlockTokens;
  bool engine_rule = false;  // a framework's KV rule; false: the memory plugin's largest fit
};

// A serving point simulated: the configuration, its point, the replica KV and the outcome.
struct SimulatedPoint {
  ParallelConfig config;
  ServingPoint point;
  ReplicaKv kv;
  Preemption preemption = Preemption::recompute;  // the engine's mode (preemption_rule.hpp)
  SchedulerRules rules;                           // the engine's built-in scheduling rules (the framework's)
  std::string rules_from;                         // "vLLM 0.19.0", or "" (no framework: vLLM V1's)
  std::string policy;                             // the scheduler plugin deciding in their place, or ""
  bool prefix_caching = false;  // the scenario's engine caches prefixes (result.cache.on: it was simulated)
  SimResult result;
};

}  // namespace tessera::requests
