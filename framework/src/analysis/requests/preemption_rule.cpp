#include "analysis/requests/preemption_rule.hpp"

#include "analysis/serving/disagg_study.hpp"
#include "physics/kv_transfer.hpp"

namespace tessera::requests {

Preemption preemption_mode(const Session& session, const RequestsSpec& spec) {
  if (spec.preemption_given) return spec.preemption;
  const Scenario& s = session.scenario();
  if (s.framework.set) return s.framework.version().preemption;
  return Preemption::recompute;
}

SchedulerRules scheduler_rules(const Session& session) {
  const Scenario& s = session.scenario();
  return s.framework.set ? s.framework.version().scheduler : SchedulerRules{};
}

void apply_preemption(const Session& session, const ParallelConfig& c, const RequestsSpec& spec,
                      EngineLimits& limits) {
  limits.rules = scheduler_rules(session);
  limits.policy = session.scheduler().get();
  limits.preemption = preemption_mode(session, spec);
  if (limits.preemption != Preemption::swap) return;
  const ModelSpec& m = session.model();
  const double shards = static_cast<double>(std::max<std::int64_t>(1, kv_shards(m, shape_of(c))));
  const double block_bytes = kv_transfer_bytes(m, limits.block_tokens) / shards;
  limits.swap_block_s = spec.swap_bandwidth > 0 ? block_bytes / spec.swap_bandwidth : 0;
  limits.swap_latency_s = spec.swap_latency_s;
}

}  // namespace tessera::requests
