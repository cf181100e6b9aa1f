// The whole serving answer: serving_answer.hpp.
#include "analysis/serving/serving_answer.hpp"

namespace tessera {

ServingAnswer run_serving_answer(const Session& session, const ServeStudyOptions& options) {
  if (!session.scenario().serving.disaggregated.enabled)
    return run_serving_answer(session, nullptr, nullptr, options);
  const PoolSessions pools = pool_sessions(session);
  return run_serving_answer(session, pools.own_prefill.get(), pools.own_decode.get(), options);
}

ServingAnswer run_serving_answer(const Session& base, const Session* own_prefill, const Session* own_decode,
                                 const ServeStudyOptions& options) {
  ServingAnswer a{.aggregated = run_serve_study(base, options), .disagg = std::nullopt, .also = {}};
  if (!base.scenario().serving.disaggregated.enabled) return a;
  a.disagg = run_disagg_study(own_prefill ? *own_prefill : base, own_decode ? *own_decode : base,
                              a.aggregated.max_pes);
  const ServingSpec& sv = base.scenario().serving;
  for (const Session* own : {own_prefill, own_decode}) {
    // The aggregated study on a pool's own machine (not on a pool that differs in its balancer alone).
    if (!own || !(own == own_prefill ? sv.prefill_machine.given : sv.decode_machine.given)) continue;
    ServeStudyOptions o = options;
    o.on_point = nullptr;  // --csv holds the points on `machine`
    o.on_progress = nullptr;
    o.points = 0;
    a.also.push_back(
        {own->machine().name, own == own_prefill ? "prefill" : "decode", run_serve_study(*own, o)});
  }
  return a;
}

}  // namespace tessera
