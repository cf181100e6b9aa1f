#include "analysis/capacity/configuration_sim.hpp"

#include "analysis/requests/cache_rule.hpp"
#include "analysis/requests/preemption_rule.hpp"
#include "eval/engine_kv.hpp"
#include "eval/host_step_timer.hpp"
#include "scenario/prefix_cache_check.hpp"
#include "tessera/error.hpp"

namespace tessera::requests {

ReplicaKv replica_kv(const Evaluator& ev, const ParallelConfig& c, const Layout& layout, StepTimer& timer,
                     std::int64_t token_budget, std::int64_t max_sequences) {
  ReplicaKv kv;
  const EngineKv& rule = ev.engine_kv();
  if (rule.active()) {
    const EngineKvCapacity cap = engine_kv_capacity(ev, rule, c, layout, token_budget, max_sequences);
    kv.engine_rule = true;
    kv.block_tokens = std::max<std::int64_t>(1, cap.block);
    kv.blocks = cap.tokens / kv.block_tokens;
    return kv;
  }
  // The largest context one sequence may hold: doubling, then bisection on whole blocks.
  std::int64_t lo = 0, hi = kv.block_tokens;
  constexpr std::int64_t kCeiling = std::int64_t{1} << 40;
  while (hi < kCeiling && timer.kv_fits(1, hi)) {
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > kv.block_tokens) {
    const std::int64_t mid = lo + (hi - lo) / 2 / kv.block_tokens * kv.block_tokens;
    if (timer.kv_fits(1, mid))
      lo = mid;
    else
      hi = mid;
  }
  kv.blocks = lo / kv.block_tokens;
  return kv;
}

SimResult simulate_configuration(const Session& session, const ParallelConfig& c, const ServingPoint& point,
                                 const RequestsSpec& spec, SimOptions options, ReplicaKv* kv_out) {
  const Evaluator& ev = session.evaluator();
  Evaluation holder, scratch;
  ev.layout_for(c, holder);
  if (!holder.layout.valid) throw InputError("request simulation: the configuration's layout is not valid");
  HostStepTimer timer(ev, c, holder.layout, scratch);
  timer.set_token_budget(point.token_budget);
  timer.set_max_sequences(point.batch);
  const ReplicaKv kv = replica_kv(ev, c, holder.layout, timer, point.token_budget, point.batch);
  if (kv_out) *kv_out = kv;
  options.limits.max_sequences = point.batch;
  options.limits.token_budget = point.token_budget;
  options.limits.chunked_prefill = point.token_budget > 0;
  options.limits.kv_blocks = kv.blocks;
  options.limits.block_tokens = kv.block_tokens;
  apply_preemption(session, c, spec, options.limits);
  apply_prefix_cache(session, c, options.limits);
  options.replicas = c.dp;
  options.router = spec.router;
  return simulate(spec.stream, timer, options);
}

SimulatedPoint simulate_point(const Session& session, const ParallelConfig& c, const ServingPoint& point,
                              const RequestsSpec& spec, const ServingSlo& slo,
                              std::function<void(const RequestOutcome&)> on_request) {
  SimulatedPoint out;
  out.config = c;
  out.point = point;
  SimOptions o;
  o.slo = slo.targets;
  o.on_request = std::move(on_request);
  out.result = simulate_configuration(session, c, point, spec, o, &out.kv);
  out.preemption = preemption_mode(session, spec);
  out.rules = scheduler_rules(session);
  out.prefix_caching = prefix_caching_on(session.scenario());
  const Scenario& sc = session.scenario();
  if (sc.framework.set) out.rules_from = sc.framework.profile.title + " " + sc.framework.version().version;
  if (session.scheduler()) out.policy = sc.plugins.scheduler.name;
  return out;
}

}  // namespace tessera::requests
