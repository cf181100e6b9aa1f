#pragma once
// Prefix caching and KV offload as a simulated engine runs them (docs/physics.md §12.7): on when
// the scenario's engine caches prefixes (prefix_caching_on) and no scheduler plugin decides (a
// plugin's admissions take no hits); each offload tier of serving.prefix_cache.offload from the
// machine's host_memory: its blocks, each PE's share of the tier over one block's bytes at one PE
// (kv_transfer_bytes of block_tokens tokens over the configuration's distinct KV shards), and one
// block's copy into HBM, those bytes over each PE's bandwidth.
#include "analysis/requests/replica.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"

namespace tessera::requests {

// Sets limits.prefix_caching and limits.offload for configuration `c` (limits.block_tokens and
// limits.policy already set).
TESSERA_API void apply_prefix_cache(const Session& session, const ParallelConfig& c, EngineLimits& limits);

}  // namespace tessera::requests
