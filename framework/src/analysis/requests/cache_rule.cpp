#include "analysis/requests/cache_rule.hpp"

#include <algorithm>
#include <cmath>

#include "analysis/serving/disagg_study.hpp"
#include "physics/kv_transfer.hpp"
#include "scenario/prefix_cache_check.hpp"

namespace tessera::requests {

void apply_prefix_cache(const Session& session, const ParallelConfig& c, EngineLimits& limits) {
  const Scenario& s = session.scenario();
  limits.prefix_caching = prefix_caching_on(s) && limits.policy == nullptr;
  limits.offload.clear();
  if (!limits.prefix_caching) return;
  limits.offload_write_through = s.framework.set && s.framework.version().kv_offload.write_through;
  const ModelSpec& m = session.model();
  const double shards = static_cast<double>(std::max<std::int64_t>(1, kv_shards(m, shape_of(c))));
  const double block_bytes = kv_transfer_bytes(m, limits.block_tokens) / shards;
  for (OffloadTierKind t : s.serving.prefix_cache.offload) {
    const HostTierSpec& h = host_tier(session.machine(), t);
    OffloadTier tier;
    tier.blocks = static_cast<std::int64_t>(std::min(std::floor(h.capacity / block_bytes), 1e15));
    tier.block_s = block_bytes / h.bandwidth;
    tier.latency_s = h.latency;
    limits.offload.push_back(tier);
  }
}

}  // namespace tessera::requests
