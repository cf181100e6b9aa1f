#include "studies/serve_entry.hpp"

#include "studies/documents/points_json.hpp"
#include "studies/documents/provenance.hpp"
#include "studies/documents/result_documents.hpp"
#include "studies/documents/scope_documents.hpp"
#include "studies/documents/simulation_document.hpp"

namespace tessera::studies {

ServeStudyResult serve(const StudyContext& context, const ServeOptions& options) {
  const Scenario& scenario = context.scenario();
  ServeStudyOptions so;
  so.threads = options.threads;
  so.top = options.top.value_or(scenario.report.top);
  so.max_pes = options.max_pes;
  so.on_progress = options.on_progress;
  if (options.points) so.points = kMaxReportPoints;
  so.on_point = options.on_point;
  ServeStudyResult r{run_serving_answer(context.session(), so),
                     {},
                     std::nullopt,
                     std::nullopt,
                     nullptr,
                     nullptr,
                     std::nullopt};
  r.notes = serve_point_notes(context.session(), r.answer.aggregated);
  if (r.answer.disagg)
    r.disagg_notes = disagg_notes(context.session(), *r.answer.disagg, r.answer.aggregated, r.answer.also);
  if (scenario.serving.requests.given)
    if (const ServeRecord* best = r.answer.aggregated.best()) {
      if (options.on_simulation_start) options.on_simulation_start(best->config, best->point);
      r.simulated =
          requests::simulate_point(context.session(), best->config, best->point, scenario.serving.requests,
                                   scenario.serving.slo, options.on_request);
    }
  std::optional<PoolSessions> pools;
  if (scenario.serving.requests.given && r.answer.disagg && r.answer.disagg->result.best) {
    pools = pool_sessions(context.session());
    requests::SimOptions o;
    o.slo = scenario.serving.slo.targets;
    r.simulated_disagg = requests::simulate_pair(*pools->prefill, *pools->decode,
                                                 *r.answer.disagg->result.best, scenario.serving.requests, o);
  }
  if (!options.document) return r;
  r.document = serve_document(context.session(), r.answer);
  if (r.simulated)
    r.document["simulation"] =
        simulation_json(*r.simulated, scenario.serving.requests, context.session().machine());
  if (r.simulated_disagg)
    r.document["simulation_disaggregated"] = disagg_simulation_json(
        *r.simulated_disagg, scenario.serving.requests, pools->prefill->machine(), pools->decode->machine());
  // The other scopes: the same study, quietly (no progress, no rows).
  add_scope_documents(r.document, scenario.workload.scope, options.scopes, [&](Scope scope) {
    const Scenario scoped = with_scope(scenario, scope);
    const Session other(scoped, context.registry());
    ServeStudyOptions quiet = so;
    quiet.on_point = {};
    quiet.on_progress = {};
    return serve_document(other, run_serving_answer(other, quiet));
  });
  if (options.command) r.document["command"] = *options.command;  // the command that produced it
  r.provenance = provenance_json(context.registry());             // what produced it (docs/report.md)
  r.document["provenance"] = r.provenance;
  return r;
}

}  // namespace tessera::studies
