#include "studies/entries/serve_entry.hpp"

#include "analysis/serving/max_throughput.hpp"
#include "studies/documents/capacity_document.hpp"
#include "studies/documents/result_documents.hpp"
#include "studies/documents/scope_documents.hpp"
#include "studies/documents/simulation_document.hpp"
#include "studies/json/points_json.hpp"
#include "studies/json/provenance.hpp"
#include "tessera/limits.hpp"

namespace tessera::studies {

RequestsSpec capacity_stream(const Scenario& scenario) {
  if (scenario.serving.requests.given) return scenario.serving.requests;
  RequestsSpec spec;
  spec.stream.arrival.kind = requests::ArrivalKind::poisson;
  spec.stream.input.value = scenario.workload.input;
  spec.stream.output.value = scenario.workload.output;
  spec.stream.requests = 0;  // the probes' own size (CapacitySettings::min_requests)
  return spec;
}

std::size_t simulated_finalists(const ServeOptions& options, const Scenario& scenario) {
  if (!options.simulate_top)  // the default, within a lowered limit report.top
    return scenario.serving.requests.given ? std::min<std::size_t>(20, current_limits().report_top) : 0;
  // The request simulation does not draft (docs/physics.md §12.8): its finalists would be timed
  // without their k.
  if (*options.simulate_top > 0 && scenario.serving.speculative.given)
    throw InputError(
        "--simulate-top: the request simulation does not draft yet; serving.speculative is "
        "modelled by the steady-state study alone (leave out --simulate-top)");
  if (*options.simulate_top > current_limits().report_top)
    throw InputError("simulate_top: " + std::to_string(*options.simulate_top) + " finalists " +
                     limit_exceeded("report.top"));
  return *options.simulate_top;
}

namespace {

// The serving study's options: the report's `top` rows, or the simulated finalists when more.
ServeStudyOptions serve_study_options(const ServeOptions& options, std::size_t top, std::size_t finalists) {
  ServeStudyOptions so;
  so.threads = options.threads;
  so.executor = options.executor;
  so.merged_everywhere = finalists > 0;  // every MPI rank ranks the finalists it searches
  so.top = std::max(top, finalists);     // the finalists are the analytical top K
  so.max_pes = options.max_pes;
  so.on_progress = options.on_progress;
  if (options.points) so.points = kMaxReportPoints;
  so.on_point = options.on_point;
  return so;
}

// r's document: the study's, its simulations and capacity, the other scopes' and provenance.
// `so` the study's options, `top` the report's rows, `spec` the capacity probes' stream and
// `pools` the disaggregated pools' sessions (set where r.simulated_disagg is).
void write_serve_document(const StudyContext& context, const ServeOptions& options,
                          const ServeStudyOptions& so, std::size_t top, const RequestsSpec& spec,
                          const std::optional<PoolSessions>& pools, ServeStudyResult& r) {
  const Scenario& scenario = context.scenario();
  r.document = serve_document(context.session(), r.answer);
  if (r.simulated)
    r.document["simulation"] =
        simulation_json(*r.simulated, scenario.serving.requests, context.session().machine());
  if (r.capacity) r.document["capacity"] = capacity_study_json(context.session(), *r.capacity, spec);
  if (r.simulated_disagg)
    r.document["simulation_disaggregated"] = disagg_simulation_json(
        *r.simulated_disagg, scenario.serving.requests, pools->prefill->machine(), pools->decode->machine());
  // The other scopes: the same study, quietly (no progress, no rows).
  add_scope_documents(r.document, scenario.workload.scope, options.scopes, [&](Scope scope) {
    const Scenario scoped = with_scope(scenario, scope);
    const Session other(scoped, context.registry());
    ServeStudyOptions quiet = so;
    quiet.top = top;
    quiet.on_point = {};
    quiet.on_progress = {};
    return serve_document(other, run_serving_answer(other, quiet));
  });
  if (options.command) r.document["command"] = *options.command;  // the command that produced it
  r.provenance = provenance_json(context.registry());             // what produced it (docs/report.md)
  r.document["provenance"] = r.provenance;
}

}  // namespace

ServeStudyResult serve(const StudyContext& context, const ServeOptions& options) {
  const Scenario& scenario = context.scenario();
  const std::size_t top = options.top.value_or(scenario.report.top);
  const std::size_t finalists = simulated_finalists(options, scenario);
  const ServeStudyOptions so = serve_study_options(options, top, finalists);
  ServeStudyResult r{run_serving_answer(context.session(), so),
                     {},
                     std::nullopt,
                     std::nullopt,
                     nullptr,
                     nullptr,
                     std::nullopt,
                     std::nullopt};
  std::vector<ServeRecord> ranked;
  if (finalists > 0) {
    ranked = r.answer.aggregated.top;
    if (r.answer.aggregated.top.size() > top) r.answer.aggregated.top.resize(top);
  }
  r.notes = serve_point_notes(context.session(), r.answer.aggregated);
  if (r.answer.disagg)
    r.disagg_notes = disagg_notes(context.session(), *r.answer.disagg, r.answer.aggregated, r.answer.also);
  // Every simulation checks serving.slo's targets and a tokens/s/user floor as a mean TPOT one.
  ServingSlo checked = scenario.serving.slo;
  checked.targets = requests::capacity_targets(checked);
  if (scenario.serving.requests.given)
    if (const ServeRecord* best = r.answer.aggregated.best()) {
      if (options.on_simulation_start) options.on_simulation_start(best->config, best->point);
      r.simulated = requests::simulate_point(context.session(), best->config, best->point,
                                             scenario.serving.requests, checked, options.on_request);
    }
  std::optional<PoolSessions> pools;
  if (scenario.serving.requests.given && r.answer.disagg && r.answer.disagg->result.best) {
    pools = pool_sessions(context.session());
    requests::SimOptions o;
    o.slo = checked.targets;
    r.simulated_disagg = requests::simulate_pair(*pools->prefill, *pools->decode,
                                                 *r.answer.disagg->result.best, scenario.serving.requests, o);
  }
  const RequestsSpec spec = capacity_stream(scenario);
  if (finalists > 0) {
    requests::CapacityStudyOptions co;
    co.top = finalists;
    co.settings = options.capacity;
    co.threads = options.threads;
    co.executor = options.executor;
    co.unit_size = options.capacity_unit;
    co.on_progress = options.on_capacity_progress;
    r.capacity = requests::confirm_finalists(context.session(), ranked, spec, scenario.serving.slo, co);
    if (r.answer.disagg && r.answer.disagg->result.best) {
      if (!pools) pools = pool_sessions(context.session());
      r.capacity->disaggregated =
          requests::pair_capacity(*pools->prefill, *pools->decode, *r.answer.disagg->result.best, spec,
                                  scenario.serving.slo, options.capacity);
    }
  }
  if (options.document) write_serve_document(context, options, so, top, spec, pools, r);
  return r;
}

std::vector<std::string> max_throughput_overrides() {
  std::string batches;
  for (const std::int64_t b : kMaxThroughputBatches)
    batches += (batches.empty() ? "" : ",") + std::to_string(b);
  return {"serving.slo={}", "sweep.serving.batch=[" + batches + "]",
          "plugins.objectives=[tokens_per_s_per_pe, tokens_per_s_per_user]"};
}

}  // namespace tessera::studies
