// The serving study: configurations within the PE budget × serving points (serve_study.hpp).
#include "analysis/serve_study.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include "core/cancellation.hpp"
#include "core/pareto.hpp"
#include "core/reservoir.hpp"
#include "core/streaming_front.hpp"
#include "core/top_n.hpp"
#include "eval/batch_evaluator.hpp"
#include "eval/grid_space.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {

ServePoint serve_point_of(const ServeRecord& r) {
  ServePoint p;
  p.key = r.key;
  p.config = r.config;
  p.point = r.point;
  p.pes = r.pes;
  p.replicas = r.replicas;
  p.ttft_s = r.metrics.ttft_s;
  p.tpot_s = r.metrics.tpot_s;
  p.tokens_per_s_per_pe = r.tokens_per_s_per_pe;
  p.tokens_per_s_per_user = r.tokens_per_s_per_user;
  p.objectives = r.objectives;
  p.feasible = r.feasible;
  return p;
}

// The study's axes: the session's objectives, or tokens/s/PE and tokens/s/user.
std::vector<ServeAxis> study_axes(const std::vector<ObjectiveSlot>& objectives) {
  std::vector<ServeAxis> axes;
  for (std::size_t i = 0; i < objectives.size(); ++i)
    axes.push_back(
        {ServeAxis::Source::objective, i, objectives[i].name, objectives[i].direction, objectives[i].unit});
  if (axes.empty()) {
    axes.push_back(
        {ServeAxis::Source::tokens_per_s_per_pe, 0, "tokens_per_s_per_pe", Direction::maximize, "tok/s/PE"});
    axes.push_back(
        {ServeAxis::Source::tokens_per_s_per_user, 0, "tokens_per_s_per_user", Direction::maximize, "tok/s"});
  }
  return axes;
}

struct AxisValues {
  const std::array<double, kMaxObjectives>& operator()(const ServeRecord& r) const { return r.axis_values; }
};

// The closest miss: the smallest SLO ratio, then the ranking.
bool closer_miss(const ServeRecord& a, const ServeRecord& b) {
  if (a.slo_ratio != b.slo_ratio) return a.slo_ratio < b.slo_ratio;
  return serve_rank_less(a, b);
}

// The configurations the study evaluates: the grid's valid ones within `max_pes` (0: all), in
// the grid's order; the others counted.
std::vector<ParallelConfig> budgeted_configs(const GridSpace& space, std::int64_t max_pes,
                                             const Scenario& scenario, ServeCounts& counts) {
  std::vector<ParallelConfig> out;
  std::uint64_t& over_budget = counts.over_budget;
  over_budget = 0;
  const FrameworkVersion* fw = scenario.framework.set ? &scenario.framework.version() : nullptr;
  constexpr std::size_t kRange = 4096;
  std::vector<ParallelConfig> range(kRange);
  for (std::uint64_t first = 0; first < space.valid_count(); first += kRange) {
    const std::size_t n = space.valid_range(first, std::span<ParallelConfig>(range.data(), kRange));
    for (std::size_t i = 0; i < n; ++i) {
      const FrameworkMiss miss = fw ? framework_miss(*fw, range[i], space.model()) : FrameworkMiss::none;
      if (miss != FrameworkMiss::none)
        ++counts.framework_dropped[static_cast<std::size_t>(miss)];
      else if (max_pes > 0 && range[i].pes() > max_pes)
        ++over_budget;
      else
        out.push_back(range[i]);
    }
    if (n == 0) break;
  }
  return out;
}

}  // namespace

std::vector<ServingPoint> serving_points(const Sweep& sweep) {
  const std::vector<std::int64_t> batches =
      sweep.serving_batch.empty() ? std::vector<std::int64_t>{1} : sweep.serving_batch;
  const std::vector<std::int64_t> budgets =
      sweep.serving_token_budget.empty() ? std::vector<std::int64_t>{0} : sweep.serving_token_budget;
  std::vector<ServingPoint> points;
  points.reserve(batches.size() * budgets.size());
  for (std::int64_t b : batches)
    for (std::int64_t t : budgets) points.push_back(ServingPoint{.batch = b, .token_budget = t});
  return points;
}

bool serve_rank_less(const ServeRecord& a, const ServeRecord& b) {
  if (a.score != b.score) return a.score < b.score;
  for (std::size_t i = 1; i < std::min(a.axes, b.axes); ++i)
    if (a.tie_values[i] != b.tie_values[i]) return a.tie_values[i] < b.tie_values[i];
  if (a.pes != b.pes) return a.pes < b.pes;
  return a.key < b.key;
}

void fill_serve_record(const ServingEvaluation& e, const std::vector<ServeAxis>& axes, std::uint64_t key,
                       ServeRecord& r) {
  r.key = key;
  r.config = e.config;
  r.point = e.point;
  r.metrics = e.metrics;
  r.verdict = e.verdict;
  r.runnable = e.runnable;
  r.feasible = e.feasible;
  r.slo_miss = e.slo_miss;
  r.slo_value = e.slo_value;
  r.slo_limit = e.slo_limit;
  r.slo_ratio = e.slo_ratio;
  r.invalid_reason = e.step.layout.reason;
  r.pes = e.config.pes();
  r.replicas = e.config.dp;
  r.tokens_per_s = e.tokens_per_s;
  r.tokens_per_s_per_pe = e.tokens_per_s_per_pe;
  r.tokens_per_s_per_user = e.tokens_per_s_per_user;
  r.objectives = e.objectives;
  r.axis_values.fill(0);
  for (std::size_t i = 0; i < axes.size() && i < r.axis_values.size(); ++i) {
    switch (axes[i].source) {
      case ServeAxis::Source::objective:
        r.axis_values[i] = e.objectives[axes[i].objective];
        break;
      case ServeAxis::Source::tokens_per_s_per_pe:
        r.axis_values[i] = e.tokens_per_s_per_pe;
        break;
      case ServeAxis::Source::tokens_per_s_per_user:
        r.axis_values[i] = e.tokens_per_s_per_user;
        break;
    }
  }
  r.score = e.runnable && !axes.empty() ? oriented(r.axis_values[0], axes[0].direction)
                                        : std::numeric_limits<double>::infinity();
  r.axes = std::min(axes.size(), r.axis_values.size());
  for (std::size_t i = 0; i < r.axes; ++i)
    r.tie_values[i] = e.runnable ? oriented(r.axis_values[i], axes[i].direction) : 0;
  const bool step_valid = e.verdict != ServingVerdict::invalid;
  r.weights_bytes = step_valid ? e.step.memory.weights_bytes : 0;
  r.kv_bytes = step_valid ? e.step.memory.kv_bytes : 0;
  r.used_bytes = step_valid ? e.step.memory.used_bytes : 0;
  r.budget_bytes = step_valid ? e.step.memory.budget_bytes : 0;
  r.reason.clear();
}

std::string serve_record_reason(const Session& session, const ServeRecord& r) {
  if (r.verdict == ServingVerdict::feasible) return "";
  // serving_reason() reads these fields of an evaluation; one scratch per thread.
  thread_local ServingEvaluation e;
  e.config = r.config;
  e.point = r.point;
  e.metrics = r.metrics;
  e.verdict = r.verdict;
  e.slo_miss = r.slo_miss;
  e.slo_value = r.slo_value;
  e.slo_limit = r.slo_limit;
  e.step.layout.reason = r.invalid_reason;
  e.step.memory.used_bytes = r.used_bytes;
  e.step.memory.budget_bytes = r.budget_bytes;
  return serving_reason(session, e);
}

ServeResult run_serve_study(const Session& session, const ServeStudyOptions& options) {
  const Scenario& scenario = session.scenario();
  ServeResult result;
  result.objectives = session.evaluator().objectives();
  result.axes = study_axes(result.objectives);
  result.max_pes = options.max_pes >= 0 ? options.max_pes : scenario.serving.max_pes;
  const ServingEvaluator evaluator(session, scenario.serving.slo);

  const GridSpace space(scenario.sweep, session.model(), session.machine(), session.context().workload);
  result.counts.enumerated = space.enumerated();
  result.counts.configurations = space.valid_count();
  const std::vector<ParallelConfig> configs =
      budgeted_configs(space, result.max_pes, scenario, result.counts);
  const std::vector<ServingPoint> points = serving_points(scenario.sweep);
  result.counts.points = points.size();
  const std::uint64_t total = static_cast<std::uint64_t>(configs.size()) * points.size();

  BatchEvaluator pool(options.threads);
  std::vector<std::unique_ptr<ServingEvaluation>> buffers;
  for (unsigned t = 0; t < pool.threads(); ++t) buffers.push_back(std::make_unique<ServingEvaluation>());
  const std::size_t batch = static_cast<std::size_t>(
      std::min<std::uint64_t>(std::max<std::size_t>(1, options.batch), std::max<std::uint64_t>(1, total)));
  std::vector<ServeRecord> slots(batch);

  std::vector<Direction> dirs;
  for (const ServeAxis& a : result.axes) dirs.push_back(a.direction);
  TopN<ServeRecord, decltype(&serve_rank_less)> top(options.top, serve_rank_less);
  StreamingFront<ServeRecord, AxisValues> front(dirs, {});
  std::optional<ServeRecord> closest;
  ServeCounts& counts = result.counts;
  Reservoir<ServePoint> sample(options.points);

  for (std::uint64_t first = 0; first < total; first += batch) {
    throw_if_cancelled();
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(batch, total - first));
    pool.run_indexed(n, [&](std::size_t begin, std::size_t end, std::size_t thread) {
      ServingEvaluation& e = *buffers[thread];
      for (std::size_t i = begin; i < end; ++i) {
        const std::uint64_t key = first + i;
        evaluator.evaluate(configs[key / points.size()], points[key % points.size()], e);
        fill_serve_record(e, result.axes, key, slots[i]);
      }
    });
    throw_if_cancelled();  // the batch may be incomplete
    for (std::size_t i = 0; i < n; ++i) {
      ServeRecord& r = slots[i];
      ++counts.evaluated;
      switch (r.verdict) {
        case ServingVerdict::feasible:
          ++counts.within_slo;
          break;
        case ServingVerdict::invalid:
          ++counts.invalid;
          break;
        case ServingVerdict::unsupported:
          ++counts.unsupported;
          break;
        case ServingVerdict::kv_overflow:
          ++counts.kv_overflow;
          break;
        case ServingVerdict::non_finite:
          ++counts.non_finite;
          break;
        case ServingVerdict::slo:
          ++counts.slo_miss;
          break;
      }
      if (r.runnable) ++counts.runnable;
      if (r.runnable && options.points > 0) sample.offer(serve_point_of(r));
      if (options.on_point) {
        r.reason = serve_record_reason(session, r);
        options.on_point(r);
      }
      if (r.feasible) {
        result.best_tokens_per_s_per_pe = std::max(result.best_tokens_per_s_per_pe, r.tokens_per_s_per_pe);
        top.offer(r);
        front.offer(r);
      } else if (r.runnable && (!closest || closer_miss(r, *closest))) {
        closest = r;
      }
    }
    report_progress(options.on_progress, counts.evaluated, total, "serving points");
  }
  throw_if_cancelled();

  result.top = top.take();
  result.frontier = front.take(serve_rank_less);
  result.points_seen = sample.seen();
  result.points_sampled = sample.sampled();
  result.points = sample.take();
  std::sort(result.points.begin(), result.points.end(),
            [](const ServePoint& a, const ServePoint& b) { return a.key < b.key; });
  for (ServeRecord& r : result.top) r.reason.clear();
  for (ServeRecord& r : result.frontier) r.reason.clear();
  if (counts.within_slo == 0 && closest) {
    closest->reason = serve_record_reason(session, *closest);
    result.closest_miss = std::move(closest);
  }
  return result;
}

}  // namespace tessera
