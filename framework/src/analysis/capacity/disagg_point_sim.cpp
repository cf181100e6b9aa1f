#include "analysis/capacity/disagg_point_sim.hpp"

#include "analysis/capacity/configuration_sim.hpp"
#include "analysis/requests/preemption_rule.hpp"
#include "eval/host_step_timer.hpp"
#include "physics/kv_transfer.hpp"
#include "scenario/prefix_cache_check.hpp"
#include "tessera/error.hpp"

namespace tessera::requests {

SimulatedPair simulate_pair(const Session& prefill, const Session& decode, const DisaggPair& pair,
                            const RequestsSpec& spec, SimOptions options) {
  SimulatedPair out;
  out.pair = pair;
  const Evaluator& ev_p = prefill.evaluator();
  const Evaluator& ev_d = decode.evaluator();
  Evaluation hold_p, hold_d, scratch_p, scratch_d;
  ev_p.layout_for(pair.prefill.config, hold_p);
  ev_d.layout_for(pair.decode.config, hold_d);
  if (!hold_p.layout.valid || !hold_d.layout.valid)
    throw InputError("request simulation: a disaggregated pool's layout is not valid");
  HostStepTimer timer_p(ev_p, pair.prefill.config, hold_p.layout, scratch_p);
  HostStepTimer timer_d(ev_d, pair.decode.config, hold_d.layout, scratch_d);
  // Whole prompts (the study's prefill of b prompts) and decode steps: no token budget.
  timer_p.set_token_budget(0);
  timer_d.set_token_budget(0);
  timer_p.set_max_sequences(pair.prefill.batch);
  timer_d.set_max_sequences(pair.decode.batch);
  out.prefill_kv = replica_kv(ev_p, pair.prefill.config, hold_p.layout, timer_p, 0, pair.prefill.batch);
  out.decode_kv = replica_kv(ev_d, pair.decode.config, hold_d.layout, timer_d, 0, pair.decode.batch);
  auto limits = [&](const Session& s, const ParallelConfig& c, const ReplicaKv& kv, std::int64_t batch) {
    EngineLimits l;
    l.max_sequences = batch;
    l.token_budget = 0;
    l.chunked_prefill = false;
    l.kv_blocks = kv.blocks;
    l.block_tokens = kv.block_tokens;
    apply_preemption(s, c, spec, l);
    return l;
  };
  out.prefill_limits = limits(prefill, pair.prefill.config, out.prefill_kv, pair.prefill.batch);
  out.decode_limits = limits(decode, pair.decode.config, out.decode_kv, pair.decode.batch);
  DisaggSimOptions o;
  o.prefill = std::move(options);
  o.prefill.limits = out.prefill_limits;
  o.prefill.replicas = pair.x * pair.prefill.config.dp;
  o.prefill.router = spec.router;
  o.decode_limits = out.decode_limits;
  o.decode_replicas = pair.y * pair.decode.config.dp;
  const ModelSpec& model = decode.model();
  const PoolShape ps = shape_of(pair.prefill.config), ds = shape_of(pair.decode.config);
  const TransferLink link = pair.link;
  const TransferOverlap overlap = decode.scenario().serving.disaggregated.overlap;
  o.transfer = [&model, ps, ds, link, overlap](std::int64_t tokens, std::int64_t requests, double prefill_s,
                                               bool overlapped) {
    const KvTransfer t = kv_transfer(model, tokens, ps, ds, link, requests);
    return overlapped ? exposed_transfer_s(t, prefill_s, model.layers, overlap) : t.time_s;
  };
  out.prefix_caching = prefix_caching_on(prefill.scenario());
  out.result = simulate_disaggregated(spec.stream, timer_p, timer_d, o);
  return out;
}

}  // namespace tessera::requests
