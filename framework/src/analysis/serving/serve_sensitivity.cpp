// `tessera sensitivity` on a serve scenario: the study and its parallelism sweeps
// (serve_sensitivity.hpp; the elasticities: serve_elasticity.cpp).
#include "analysis/serving/serve_sensitivity.hpp"

#include <cmath>

#include "analysis/search/sensitivity.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "analysis/serving/serving_points.hpp"
#include "tessera/error.hpp"
#include "tessera/physics/layout.hpp"

namespace tessera {
namespace {

// The best point within the SLO (and the PE budget) of configuration `c` over `points`, else why
// none is: the budget, or the reason of the runnable point closest to the SLO, or of the first point.
void best_over_serving_points(const Session& session, const ServingEvaluator& ev,
                              const std::vector<ServingPoint>& points, std::int64_t max_pes,
                              ServeKnobValue& out, ServingEvaluation& e) {
  out.pes = out.config.pes();
  if (max_pes > 0 && out.pes > max_pes) {
    out.reason = std::to_string(out.pes) + " PEs over the budget serving.max_pes " + std::to_string(max_pes);
    return;
  }
  double closest = INFINITY;
  for (const ServingPoint& p : points) {
    ev.evaluate(out.config, p, e);
    if (e.feasible && e.tokens_per_s_per_pe > out.tokens_per_s_per_pe) {
      out.feasible = true;
      out.point = p;
      out.tokens_per_s_per_pe = e.tokens_per_s_per_pe;
      out.tokens_per_s_per_user = e.tokens_per_s_per_user;
    }
    if (out.feasible) continue;
    const bool first = &p == &points.front();
    if (first || (e.runnable && e.slo_ratio < closest)) {
      if (e.runnable) closest = e.slo_ratio;
      out.point = p;
      out.reason = serving_reason(session, e);
    }
  }
  if (out.feasible) out.reason.clear();
}

}  // namespace

std::vector<ServeKnobSweep> serve_parallelism_sensitivity(const Session& session,
                                                          const ParallelConfig& best) {
  const Scenario& scenario = session.scenario();
  const std::vector<ServingPoint> points = serving_points(scenario.sweep, scenario.serving.speculative);
  const ServingEvaluator ev(session, scenario.serving.slo);
  ServingEvaluation e;
  std::vector<ServeKnobSweep> out;
  for (const char* name : {"cp", "tp", "pp", "dp", "ep"}) {
    ServeKnobSweep k;
    k.knob = name;
    ParallelConfig b = best;
    k.baseline = parallel_degree(b, name);
    for (const std::int32_t v : seed_sweep_values(name)) {
      ServeKnobValue row;
      row.value = v;
      row.config = best;
      parallel_degree(row.config, name) = v;
      row.config = canonicalize(session.model(), row.config);
      best_over_serving_points(session, ev, points, scenario.serving.max_pes, row, e);
      k.values.push_back(std::move(row));
    }
    out.push_back(std::move(k));
  }
  return out;
}

ServeSensitivityStudy serve_sensitivity_study(const Session& session, bool parallelism, bool hardware,
                                              const ServeSensitivityOptions& options) {
  ServeStudyOptions so;
  so.threads = options.threads;
  so.top = 1;
  so.on_progress = options.on_progress;
  const ServingAnswer a = run_serving_answer(session, so);
  const ServeRecord* best = a.aggregated.best();
  if (!best || !best->feasible)
    throw Error("no serving point within the SLO in scenario " + session.scenario().name +
                ": nothing to perturb");
  ServeSensitivityStudy study;
  study.best = *best;
  study.objectives = a.aggregated.objectives;
  study.axes = a.aggregated.axes;
  study.best_tokens_per_s_per_pe = a.aggregated.best_tokens_per_s_per_pe;
  if (a.disagg && a.disagg->result.best)
    study.disaggregated_tokens_per_s_per_pe = a.disagg->result.best->tokens_per_s_per_pe;
  study.has_parallelism = parallelism;
  study.has_hardware = hardware;
  if (session.scenario().serving.requests.given)
    study.note =
        "serving.requests is not simulated: every figure is the steady-state study's (tessera serve "
        "simulates the requests)";
  if (parallelism) study.parallelism = serve_parallelism_sensitivity(session, study.best.config);
  if (hardware) study.hardware = serve_hardware_sensitivity(session, study.best, options);
  return study;
}

}  // namespace tessera
