// The whole serving answer: serving_answer.hpp.
#include "analysis/serving_answer.hpp"

namespace tessera {

ServingAnswer run_serving_answer(const Session& session, const ServeStudyOptions& options) {
  ServingAnswer a{.aggregated = run_serve_study(session, options), .disagg = std::nullopt, .also = {}};
  if (!session.scenario().serving.disaggregated.enabled) return a;
  const PoolSessions pools = pool_sessions(session);
  a.disagg = run_disagg_study(*pools.prefill, *pools.decode, a.aggregated.max_pes);
  for (const Session* own : {pools.own_prefill.get(), pools.own_decode.get()}) {
    if (!own) continue;
    ServeStudyOptions o = options;
    o.on_point = nullptr;  // --csv holds the points on `machine`
    o.on_progress = nullptr;
    o.points = 0;
    const char* role = own == pools.own_prefill.get() ? " (the prefill pool's)" : " (the decode pool's)";
    a.also.push_back({own->machine().name + role, run_serve_study(*own, o).best_tokens_per_s_per_pe});
  }
  return a;
}

}  // namespace tessera
