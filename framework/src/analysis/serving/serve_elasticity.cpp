// The elasticities of a serve scenario's best tokens/s/PE within the SLO to each hardware knob and
// serving parameter (serve_sensitivity.hpp): re-optimised and fixed.
#include <algorithm>
#include <cmath>
#include <memory>

#include "analysis/search/sensitivity.hpp"
#include "analysis/serving/serve_sensitivity.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "analysis/serving/serving_points.hpp"

namespace tessera {
namespace {

constexpr const char* kServeSloTtft = "serving.slo.ttft";
constexpr const char* kServeSloTpot = "serving.slo.tpot";
constexpr const char* kServeAcceptance = "serving.speculative.acceptance";

// The SLO with one metric's bound and each of its targets scaled by `factor`.
ServingSlo scaled_serve_slo(ServingSlo slo, SloLatency metric, double factor) {
  (metric == SloLatency::ttft ? slo.ttft_s : slo.tpot_s) *= factor;
  for (SloTarget& t : slo.targets)
    if (t.metric == metric) t.limit_s *= factor;
  return slo;
}

// The session with knob `path` at `value`.
std::unique_ptr<Session> perturbed_serve_session(const Session& session, const std::string& path,
                                                 double value, const ParamSpec* spec) {
  const ServingSpec& sv = session.scenario().serving;
  if (path == kServeSloTtft)
    return session.with_slo(scaled_serve_slo(sv.slo, SloLatency::ttft, value / sv.slo.ttft_s));
  if (path == kServeSloTpot)
    return session.with_slo(scaled_serve_slo(sv.slo, SloLatency::tpot, value / sv.slo.tpot_s));
  if (path == kServeAcceptance) return session.with_speculative(-1, value);
  return with_hardware_knob(session, path, value, spec);
}

// The unperturbed best point re-evaluated on `s`: its serving point there (the perturbed
// acceptance's gain per verify step), its tokens/s/PE and ranking-axis value when within the SLO.
std::pair<double, double> fixed_best_point(const Session& s, const ServeRecord& best,
                                           const std::vector<ServeAxis>& axes) {
  const Scenario& sc = s.scenario();
  std::vector<double> rates;
  const std::vector<ServingPoint> points = serving_points(sc.sweep, sc.serving.speculative, &rates);
  const bool swept_rates = !sc.sweep.serving_acceptance.empty();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const ServingPoint& p = points[i];
    if (p.batch != best.point.batch || p.token_budget != best.point.token_budget ||
        p.speculative_tokens != best.point.speculative_tokens || (swept_rates && rates[i] != best.acceptance))
      continue;
    const ServingEvaluator ev(s, sc.serving.slo);
    ServingEvaluation e;
    ev.evaluate(best.config, p, e);
    if (!e.feasible) return {NAN, NAN};
    ServeRecord r;
    fill_serve_record(e, axes, 0, rates[i], r);
    return {e.tokens_per_s_per_pe, axes.empty() ? NAN : r.axis_values[0]};
  }
  return {NAN, NAN};
}

void measure_serve_knob(const Session& session, const ServeRecord& best, const ServeSensitivityOptions& o,
                        const ParamSpec* spec, ServeElasticity& h) {
  for (int side = 0; side < 2; ++side) {
    const auto s =
        perturbed_serve_session(session, h.path, h.value * (side == 0 ? 1 - o.step : 1 + o.step), spec);
    ServeStudyOptions so;
    so.threads = o.threads;
    so.top = 1;
    const ServingAnswer a = run_serving_answer(*s, so);
    const ServeRecord* b = a.aggregated.best();
    const double q = a.aggregated.best_tokens_per_s_per_pe;
    const auto [fq, fa] = fixed_best_point(*s, best, a.aggregated.axes);
    // Another axis than tokens/s/PE ranks (cost_per_mtok): its best value too.
    const bool other_axis =
        !a.aggregated.axes.empty() && a.aggregated.axes.front().name != "tokens_per_s_per_pe";
    (side == 0 ? h.reoptimised.minus : h.reoptimised.plus) = q > 0 ? q : NAN;
    (side == 0 ? h.fixed.minus : h.fixed.plus) = fq;
    if (other_axis) {
      (side == 0 ? h.axis_reoptimised.minus : h.axis_reoptimised.plus) =
          b && b->feasible ? b->axis_values[0] : NAN;
      (side == 0 ? h.axis_fixed.minus : h.axis_fixed.plus) = fa;
    }
    if (a.disagg)
      (side == 0 ? h.disaggregated.minus : h.disaggregated.plus) =
          a.disagg->result.best ? a.disagg->result.best->tokens_per_s_per_pe : NAN;
  }
  for (ServeResponse* r : {&h.fixed, &h.reoptimised, &h.axis_fixed, &h.axis_reoptimised, &h.disaggregated})
    r->elasticity = central_elasticity(r->minus, r->plus, o.step);
  if (std::isnan(h.reoptimised.elasticity))
    h.note = "no serving point within the SLO on a perturbed session";
  else if (std::isnan(h.fixed.elasticity))
    h.note = "the best point is not runnable or misses the SLO on a perturbed session";
}

// The knob's value and dimension into h; the latency plugin parameter's schema entry, if any.
const ParamSpec* read_serve_knob(const Session& session, ServeElasticity& h) {
  const ServingSpec& sv = session.scenario().serving;
  if (h.path == kServeSloTtft || h.path == kServeSloTpot) {
    h.value = h.path == kServeSloTtft ? sv.slo.ttft_s : sv.slo.tpot_s;
    h.dimension = Dimension::time;
    return nullptr;
  }
  if (h.path == kServeAcceptance) {
    h.value = sv.speculative.acceptance;
    return nullptr;
  }
  const KnobValue k = hardware_knob_value(session, h.path);
  h.value = k.value;
  h.dimension = k.dimension;
  return k.spec;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> serve_sensitivity_knobs(const Session& session) {
  auto k = hardware_knobs(session);
  const Scenario& sc = session.scenario();
  const ServingSlo& slo = sc.serving.slo;
  if (slo.ttft_s < kNoSlo) k.emplace_back(kServeSloTtft, "TTFT SLO");
  if (slo.tpot_s < kNoSlo) k.emplace_back(kServeSloTpot, "TPOT SLO");
  const SpeculativeSpec& sp = sc.serving.speculative;
  if (sp.given && sp.acceptance >= 0 && sp.acceptance_by_position.empty() &&
      sc.sweep.serving_acceptance.empty())
    k.emplace_back(kServeAcceptance, "speculative acceptance");
  return k;
}

std::vector<ServeElasticity> serve_hardware_sensitivity(const Session& session, const ServeRecord& best,
                                                        const ServeSensitivityOptions& options) {
  const auto knobs = serve_sensitivity_knobs(session);
  std::vector<ServeElasticity> out;
  report_progress(options.on_progress, 0, knobs.size(), "sensitivity knobs");
  for (const auto& [path, label] : knobs) {
    ServeElasticity h;
    h.path = path;
    h.label = label;
    const ParamSpec* spec = read_serve_knob(session, h);
    const double lo = h.value * (1 - options.step), hi = h.value * (1 + options.step);
    if (!(h.value > 0))
      h.note = "value is 0: no relative change";
    else if ((spec && (lo < spec->min || hi > spec->max)) || (path == kServeAcceptance && hi > 1))
      h.note = "a perturbation of " + std::to_string(static_cast<int>(std::lround(options.step * 100))) +
               " % leaves the parameter's range";
    else
      measure_serve_knob(session, best, options, spec, h);
    out.push_back(std::move(h));
    report_progress(options.on_progress, out.size(), knobs.size(), "sensitivity knobs");
  }
  const auto mag = [](const ServeElasticity& h) {
    const double a = std::isnan(h.reoptimised.elasticity) ? 0 : std::fabs(h.reoptimised.elasticity);
    const double b = std::isnan(h.fixed.elasticity) ? 0 : std::fabs(h.fixed.elasticity);
    return std::make_pair(a, b);
  };
  std::stable_sort(out.begin(), out.end(), [&](const auto& x, const auto& y) { return mag(x) > mag(y); });
  return out;
}

}  // namespace tessera
