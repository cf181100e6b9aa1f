// A configuration at a serving point: docs/physics.md §12 "Serving".
#include "eval/serving_evaluator.hpp"

#include <algorithm>
#include <cmath>

#include "eval/host_step_timer.hpp"
#include "host/guarded_plugins.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/prefix_cache_check.hpp"
#include "scenario/serving_stacks/stack_restriction.hpp"

#include "tessera/error.hpp"
#include "tessera/units.hpp"

namespace tessera {

namespace {

bool finite_metrics(const ServingMetrics& m) {
  return std::isfinite(m.ttft_s) && std::isfinite(m.tpot_s) && std::isfinite(m.tpot_tail_s) &&
         std::isfinite(m.e2e_s) && std::isfinite(m.tokens_per_s) && std::isfinite(m.requests_per_s);
}

}  // namespace

const char* slo_metric_name(SloMetric m) {
  switch (m) {
    case SloMetric::none:
      return "none";
    case SloMetric::ttft:
      return "TTFT";
    case SloMetric::tpot:
      return "TPOT";
    case SloMetric::e2e:
      return "E2E";
    case SloMetric::tokens_per_s_per_user:
      return "tokens/s/user";
  }
  return "SLO";
}

ServingEvaluator::ServingEvaluator(const Session& session, const ServingSlo& slo)
    : session_(session), slo_(slo) {
  if (!session_.serving())
    throw InputError("scenario " + session_.scenario().name + " is not a serving scenario");
  const Workload& w = session_.evaluator().workload();
  request_.input = w.input;
  request_.output = w.output;
  request_.cached = cached_prefix(session_.scenario(), w.input);
}

void ServingEvaluator::check_slo(ServingEvaluation& out) const {
  const ServingMetrics& m = out.metrics;
  out.slo_miss = SloMetric::none;
  out.slo_ratio = 0;
  double worst = 0;
  auto consider = [&](SloMetric metric, double value, double limit, double ratio) {
    if (!(limit < kNoSlo) && metric != SloMetric::tokens_per_s_per_user) return;
    out.slo_ratio = std::max(out.slo_ratio, ratio);
    if (ratio > 1 && ratio > worst) {
      worst = ratio;
      out.slo_miss = metric;
      out.slo_value = value;
      out.slo_limit = limit;
    }
  };
  if (slo_.ttft_s < kNoSlo) consider(SloMetric::ttft, m.ttft_s, slo_.ttft_s, m.ttft_s / slo_.ttft_s);
  if (slo_.tpot_s < kNoSlo) consider(SloMetric::tpot, m.tpot_s, slo_.tpot_s, m.tpot_s / slo_.tpot_s);
  if (slo_.e2e_s < kNoSlo) consider(SloMetric::e2e, m.e2e_s, slo_.e2e_s, m.e2e_s / slo_.e2e_s);
  if (slo_.min_tokens_per_s_per_user > 0) {
    const double v = out.tokens_per_s_per_user;
    consider(SloMetric::tokens_per_s_per_user, v, slo_.min_tokens_per_s_per_user,
             v > 0 ? slo_.min_tokens_per_s_per_user / v : kNoSlo);
  }
}

void ServingEvaluator::clear_point(const ParallelConfig& c, const ServingPoint& point,
                                   ServingEvaluation& out) const {
  out.config = c;
  out.point = point;
  out.metrics = ServingMetrics{};
  out.feasible = out.runnable = false;
  out.slo_miss = SloMetric::none;
  out.slo_ratio = 0;
  out.objectives.fill(0);
  out.pes = static_cast<double>(c.pes());
  out.tokens_per_s = out.tokens_per_s_per_pe = out.tokens_per_s_per_user = 0;
  out.step.memory = MemoryUsage{};  // a point refused before its memory is asked reports none
}

bool ServingEvaluator::prepare(HostStepTimer& timer, const ParallelConfig& c, const ServingPoint& point,
                               ServingEvaluation& out) const {
  timer.set_token_budget(point.token_budget);
  timer.set_max_sequences(point.batch);
  timer.set_draft_tokens(point.speculative_tokens);
  if (point.speculative_tokens <= 0) return true;
  const Scenario& s = session_.scenario();
  const SpeculativeSpec& sp = s.serving.speculative;
  timer.set_draft_head(sp.draft_fc_inputs(), sp.draft_moe());
  if (s.framework.set && attention_dp(c)) {
    const auto& refused = s.framework.version().speculative.no_attention_dp;
    if (std::find(refused.begin(), refused.end(), sp.method) != refused.end()) {
      out.metrics.infeasible =
          "the framework version does not run this drafter beside attention data parallelism "
          "(data/frameworks.yaml speculative.no_attention_dp)";
      out.verdict = ServingVerdict::unsupported;
      return false;
    }
  }
  const Evaluator* draft = session_.evaluator().draft_model();
  if (!draft) return true;
  // A separate draft model runs beside the target at its parallelism (engines shard it alike).
  out.draft_config = Evaluator::draft_model_config(c, *draft->context().model);
  draft->layout_for(out.draft_config, out.draft_scratch);
  if (!out.draft_scratch.layout.valid) {
    out.metrics.infeasible =
        "the draft model cannot be sharded at this configuration (its heads, KV heads or layers do not "
        "divide by tp or pp)";
    out.verdict = ServingVerdict::unsupported;
    return false;
  }
  timer.set_draft_model(*draft, out.draft_config, out.draft_scratch);
  return true;
}

void ServingEvaluator::evaluate_point(const ParallelConfig& c, const ServingPoint& point,
                                      ServingEvaluation& out) const {
  const Evaluator& ev = session_.evaluator();
  clear_point(c, point, out);
  Evaluation& step = out.step;
  step.config = c;
  step.totals = StepTotals{};
  step.stages.clear();
  ev.layout_for(c, step);
  step.valid = step.layout.valid;
  if (!step.valid) {
    out.verdict = ServingVerdict::invalid;
    return;
  }
  HostStepTimer timer(ev, c, step.layout, out.scratch);
  if (!prepare(timer, c, point, out)) return;
  session_.serving()->evaluate(ev.context(), c, request_, out.point, timer, out.metrics);
  const ServingMetrics& m = out.metrics;
  // The memory at the peak KV, for the reports (the plugin decided the fit): a question asked of
  // the evaluator's one context, which stays as it is.
  Workload peak = ev.workload();
  peak.mode = Mode::decode;
  peak.batch = std::max<std::int64_t>(1, m.batch > 0 ? m.batch : point.batch);
  peak.context = request_.input + request_.output;
  peak.chunk = 0;
  timer.memory_of(peak, step.memory);
  // The decode step at the point's batch and mean context: the objectives' step, and the
  // breakdown reports show.
  Workload mean = peak;
  mean.context = request_.input + request_.output / 2;
  ev.time_workload(mean, c, step);
  step.totals.pes = out.pes;
  if (m.infeasible != nullptr) {
    out.verdict = ServingVerdict::unsupported;
    return;
  }
  if (!m.kv_fits) {
    out.verdict = ServingVerdict::kv_overflow;
    return;
  }
  // The host checks the plugin's word with the memory model: the KV it says fits must fit, or a
  // best point or a frontier point could lie over the memory budget.
  // Under a framework's KV rule the engine's capacity is the memory model's word: the batch must
  // be admitted at least as continuous batching admits it.
  if (ev.engine_kv().active()) {
    if (!timer.kv_admits(peak.batch, request_.input, request_.output, true))
      kv_claim_refuted(peak, step.memory);
  } else if (!step.memory.fits) {
    kv_claim_refuted(peak, step.memory);
  }
  const double dp = c.dp;
  out.tokens_per_s = dp * m.tokens_per_s;
  out.tokens_per_s_per_pe = out.pes > 0 ? out.tokens_per_s / out.pes : 0;
  out.tokens_per_s_per_user = m.tpot_s > 0 ? 1.0 / m.tpot_s : 0;
  const auto& objectives = ev.objectives();
  const std::size_t n = std::min(objectives.size(), out.objectives.size());
  const StepTotals* prefill = nullptr;
  if (ev.context().machine->energy.present) {
    if (out.prefill_evaluator != ev.id() || !(out.prefill_for == c)) {
      Workload one = ev.workload();
      one.mode = Mode::prefill;
      one.batch = 1;
      one.context = request_.input;
      one.chunk = request_.input;
      ev.time_workload(one, c, out.scratch);
      out.prefill = out.scratch.totals;
      out.prefill.pes = out.pes;
      out.prefill_for = c;
      out.prefill_evaluator = ev.id();
    }
    prefill = &out.prefill;
  }
  const EvaluatedStep es{
      .stages = step.stages, .totals = step.totals, .memory = step.memory, .serving = &m, .prefill = prefill};
  bool finite = finite_metrics(m);
  for (std::size_t i = 0; i < n; ++i) {
    out.objectives[i] = objectives[i].objective->evaluate(ev.context(), ev.workload(), c, es);
    finite = finite && std::isfinite(out.objectives[i]);
  }
  if (!finite) {
    out.verdict = ServingVerdict::non_finite;
    return;
  }
  out.runnable = true;
  check_slo(out);
  out.feasible = out.slo_miss == SloMetric::none;
  out.verdict = out.feasible ? ServingVerdict::feasible : ServingVerdict::slo;
}

void ServingEvaluator::kv_claim_refuted(const Workload& peak, const MemoryUsage& memory) const {
  const std::string budget = format_quantity(memory.budget_bytes, Dimension::bytes);
  throw_plugin_error(*session_.serving(), "serving",
                     "evaluate returned kv_fits = true, but the memory model (memory/" +
                         session_.scenario().plugins.memory.name + ") says the KV of " +
                         std::to_string(peak.batch) + " x " + std::to_string(peak.context) +
                         " tokens does not fit: weights+KV+transient " +
                         format_quantity(memory.used_bytes, Dimension::bytes) + " > budget " + budget +
                         " per PE (kv_fits must be StepTimer::kv_fits of the batch at ISL + OSL)");
}

void ServingEvaluator::evaluate(const ParallelConfig& c, const ServingPoint& point,
                                ServingEvaluation& out) const {
  try {
    evaluate_point(c, point, out);
    session_.evaluator().verify_context(c, session_.serving().get());
  } catch (const PluginError& e) {
    throw PluginError(std::string(e.what()) + "; at configuration " + format_config(c, session_.machine()) +
                      ", batch " + std::to_string(point.batch) + ", token budget " +
                      std::to_string(point.token_budget));
  }
}

std::string serving_reason(const Session& session, const ServingEvaluation& e) {
  switch (e.verdict) {
    case ServingVerdict::feasible:
      return "";
    case ServingVerdict::invalid:
      return describe_invalid(e.step.layout.reason, session.model(), session.machine(), e.config);
    case ServingVerdict::unsupported:
      return e.metrics.infeasible ? e.metrics.infeasible : "the serving plugin cannot run it";
    case ServingVerdict::kv_overflow: {
      const Workload& w = session.evaluator().workload();
      const EngineKv& rule = session.evaluator().engine_kv();
      if (rule.active()) {
        const EngineKvCapacity cap =
            engine_kv_capacity(session.evaluator(), rule.at_draft(e.point.speculative_tokens), e.config,
                               e.step.layout, e.point.token_budget, e.point.batch);
        const bool staggered =
            session.scenario().plugins.serving.name != plugin_defaults::kStaticBatchServing;
        return "KV of " + std::to_string(e.point.batch) + " x (" + std::to_string(w.input) + " + " +
               std::to_string(w.output) + ") tokens at " + (staggered ? "its worst moment (" : "once (") +
               std::to_string(engine_worst_tokens(e.point.batch, w.input, w.output, cap.block, staggered)) +
               " tokens in blocks) exceeds the " + rule.label + " KV capacity of " +
               std::to_string(cap.tokens) + " tokens";
      }
      return "KV of " + std::to_string(e.point.batch) + " x " + std::to_string(w.input + w.output) +
             " tokens does not fit: weights+KV+transient " +
             format_quantity(e.step.memory.used_bytes, Dimension::bytes) + " > budget " +
             format_quantity(e.step.memory.budget_bytes, Dimension::bytes) + " per PE";
    }
    case ServingVerdict::non_finite:
      return "infeasible: a non-finite serving metric or objective";
    case ServingVerdict::slo: {
      const bool rate = e.slo_miss == SloMetric::tokens_per_s_per_user;
      const Dimension d = rate ? Dimension::none : Dimension::time;
      const std::string v = format_quantity(e.slo_value, d);
      const std::string l = format_quantity(e.slo_limit, d);
      return std::string(slo_metric_name(e.slo_miss)) + " " + v + (rate ? " < SLO " : " > SLO ") + l;
    }
  }
  return "";
}

}  // namespace tessera
