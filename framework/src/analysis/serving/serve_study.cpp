// The serving study: configurations within the PE budget × serving points (serve_study.hpp).
#include "analysis/serving/serve_study.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include "analysis/serving/serve_record_bytes.hpp"
#include "core/cancellation.hpp"
#include "core/executor.hpp"
#include "core/statistics/pareto.hpp"
#include "core/statistics/reservoir.hpp"
#include "core/statistics/streaming_front.hpp"
#include "core/statistics/top_n.hpp"
#include "eval/batch_evaluator.hpp"
#include "eval/grid_space.hpp"
#include "host/call_trace.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {

ServePoint serve_point_of(const ServeRecord& r) {
  ServePoint p;
  static_cast<ServedPoint&>(p) = r;
  p.ttft_s = r.metrics.ttft_s;
  p.tpot_s = r.metrics.tpot_s;
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
  const ServingStackVersion* fw = scenario.framework.set ? &scenario.framework.version() : nullptr;
  constexpr std::size_t kRange = 4096;
  std::vector<ParallelConfig> range(kRange);
  for (std::uint64_t first = 0; first < space.valid_count(); first += kRange) {
    const std::size_t n = space.valid_range(first, std::span<ParallelConfig>(range.data(), kRange));
    for (std::size_t i = 0; i < n; ++i) {
      const ServingStackMiss miss = fw ? stack_miss(*fw, range[i], space.model()) : ServingStackMiss::none;
      if (miss != ServingStackMiss::none)
        ++counts.stack_dropped[static_cast<std::size_t>(miss)];
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

std::vector<ServeAxis> serve_study_axes(const std::vector<ObjectiveSlot>& objectives) {
  return study_axes(objectives);
}

bool serve_rank_less(const ServeRecord& a, const ServeRecord& b) {
  if (a.score != b.score) return a.score < b.score;
  for (std::size_t i = 1; i < std::min(a.axes, b.axes); ++i)
    if (a.tie_values[i] != b.tie_values[i]) return a.tie_values[i] < b.tie_values[i];
  if (a.pes != b.pes) return a.pes < b.pes;
  return a.key < b.key;
}

void fill_serve_record(const ServingEvaluation& e, const std::vector<ServeAxis>& axes, std::uint64_t key,
                       double acceptance, ServeRecord& r) {
  r.key = key;
  r.config = e.config;
  r.point = e.point;
  r.acceptance = acceptance;
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
  // On the heap, once per thread (two Evaluations: too large for the static TLS block).
  thread_local const std::unique_ptr<ServingEvaluation> scratch = std::make_unique<ServingEvaluation>();
  ServingEvaluation& e = *scratch;
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

namespace {

// How the evaluated points are summarised, for one work unit (buffered: its runnable points and
// streamed rows handed to the study's merge in plan order) or for the whole study (streaming):
// the counts, the top N, the frontier, the closest miss, the sample and the rows.
class ServeSummary {
 public:
  // buffered: a unit's of at most `unit_points` points (its buffers reserved once).
  ServeSummary(const Session& session, const ServeStudyOptions& options, const std::vector<Direction>& dirs,
               bool buffered, std::uint64_t unit_points = 0)
      : session_(session),
        options_(options),
        buffered_(buffered),
        top_(options.top, serve_rank_less),
        front_(dirs, {}),
        sample_(buffered ? 0 : options.points) {
    if (buffered && options.points > 0) points_.reserve(static_cast<std::size_t>(unit_points));
    if (buffered && options.on_point) rows_.reserve(static_cast<std::size_t>(unit_points));
  }

  void offer(ServeRecord& r) {
    ++counts_.evaluated;
    switch (r.verdict) {
      case ServingVerdict::feasible:
        ++counts_.within_slo;
        break;
      case ServingVerdict::invalid:
        ++counts_.invalid;
        break;
      case ServingVerdict::unsupported:
        ++counts_.unsupported;
        break;
      case ServingVerdict::kv_overflow:
        ++counts_.kv_overflow;
        break;
      case ServingVerdict::non_finite:
        ++counts_.non_finite;
        break;
      case ServingVerdict::slo:
        ++counts_.slo_miss;
        break;
    }
    if (r.runnable) ++counts_.runnable;
    if (r.runnable && options_.points > 0) offer_point(serve_point_of(r));
    if (options_.on_point) {
      r.reason = serve_record_reason(session_, r);
      offer_row(r);
    }
    if (r.feasible) {
      best_tokens_per_s_per_pe_ = std::max(best_tokens_per_s_per_pe_, r.tokens_per_s_per_pe);
      top_.offer(r);
      front_.offer(r);
    } else if (r.runnable) {
      offer_miss(r);
    }
  }
  // The exact merge of a unit's summary, the units taken in plan order: counts add, the best
  // tokens/s/PE is the larger, the top N and the frontier of a union are those of the parts'
  // (serve_rank_less is a strict order, ties end on the key), the closest miss the closer, and
  // the sample and the rows are fed in the study's order as if streamed.
  void absorb(ServeSummary& unit) {
    const ServeCounts& c = unit.counts_;
    counts_.evaluated += c.evaluated;
    counts_.within_slo += c.within_slo;
    counts_.invalid += c.invalid;
    counts_.unsupported += c.unsupported;
    counts_.kv_overflow += c.kv_overflow;
    counts_.non_finite += c.non_finite;
    counts_.slo_miss += c.slo_miss;
    counts_.runnable += c.runnable;
    best_tokens_per_s_per_pe_ = std::max(best_tokens_per_s_per_pe_, unit.best_tokens_per_s_per_pe_);
    for (const ServeRecord& r : unit.top_.take()) top_.offer(r);
    for (const ServeRecord& r : unit.front_.take(serve_rank_less)) front_.offer(r);
    if (unit.closest_) offer_miss(*unit.closest_);
    for (const ServePoint& p : unit.points_) offer_point(p);
    for (const ServeRecord& r : unit.rows_) offer_row(r);
    unit.points_.clear();
    unit.rows_.clear();
  }

  // Into `result` (its counts of what was evaluated, the best tokens/s/PE, the top N, the
  // frontier, the sample and the closest miss).
  void finish(ServeResult& result) {
    ServeCounts& counts = result.counts;
    counts.evaluated = counts_.evaluated;
    counts.within_slo = counts_.within_slo;
    counts.invalid = counts_.invalid;
    counts.unsupported = counts_.unsupported;
    counts.kv_overflow = counts_.kv_overflow;
    counts.non_finite = counts_.non_finite;
    counts.slo_miss = counts_.slo_miss;
    counts.runnable = counts_.runnable;
    result.best_tokens_per_s_per_pe = best_tokens_per_s_per_pe_;
    result.top = top_.take();
    result.frontier = front_.take(serve_rank_less);
    result.points_seen = sample_.seen();
    result.points_sampled = sample_.sampled();
    result.points = sample_.take();
    std::sort(result.points.begin(), result.points.end(),
              [](const ServePoint& a, const ServePoint& b) { return a.key < b.key; });
    for (ServeRecord& r : result.top) r.reason.clear();
    for (ServeRecord& r : result.frontier) r.reason.clear();
    if (counts.within_slo == 0 && closest_) {
      closest_->reason = serve_record_reason(session_, *closest_);
      result.closest_miss = std::move(closest_);
    }
  }

  std::uint64_t evaluated() const { return counts_.evaluated; }

  // A buffered unit's summary as bytes, and back (its UnitCodec: a unit computed in another
  // process, docs/architecture.md "Studies: plan, work units, merge").
  void save(ByteWriter& w) const {
    w.put(counts_);
    w.put(best_tokens_per_s_per_pe_);
    write_serve_records(w, top_.items());
    write_serve_records(w, front_.items());
    w.put<std::uint8_t>(closest_ ? 1 : 0);
    if (closest_) write_serve_record(w, *closest_);
    w.put_list(points_);
    write_serve_records(w, rows_);
  }
  void load(ByteReader& in) {
    counts_ = in.get<ServeCounts>();
    best_tokens_per_s_per_pe_ = in.get<double>();
    for (const ServeRecord& r : read_serve_records(in)) top_.offer(r);
    for (const ServeRecord& r : read_serve_records(in)) front_.offer(r);
    if (in.get<std::uint8_t>() != 0) closest_ = read_serve_record(in);
    points_ = in.get_list<ServePoint>();
    rows_ = read_serve_records(in);
    if (!in.done()) in.fail();
  }

 private:
  void offer_miss(const ServeRecord& r) {
    if (!closest_ || closer_miss(r, *closest_)) closest_ = r;
  }
  void offer_point(const ServePoint& p) {
    if (buffered_)
      points_.push_back(p);
    else
      sample_.offer(p);
  }
  void offer_row(const ServeRecord& r) {
    if (buffered_)
      rows_.push_back(r);
    else
      options_.on_point(r);
  }

  const Session& session_;
  const ServeStudyOptions& options_;
  bool buffered_;
  ServeCounts counts_;
  double best_tokens_per_s_per_pe_ = 0;
  TopN<ServeRecord, decltype(&serve_rank_less)> top_;
  StreamingFront<ServeRecord, AxisValues> front_;
  std::optional<ServeRecord> closest_;
  Reservoir<ServePoint> sample_;
  std::vector<ServePoint> points_;  // buffered: runnable points, in order
  std::vector<ServeRecord> rows_;   // buffered: every point, reason included (on_point)
};

// What one worker evaluates with: its threads and their buffers, a batch of slots.
struct ServeWorker {
  ServeWorker(unsigned threads, std::size_t batch) : pool(threads), slots(batch) {
    for (unsigned t = 0; t < pool.threads(); ++t) buffers.push_back(std::make_unique<ServingEvaluation>());
  }
  BatchEvaluator pool;
  std::vector<std::unique_ptr<ServingEvaluation>> buffers;
  std::vector<ServeRecord> slots;
};

// Serving points per work unit: ServeStudyOptions::unit_size, else kDefaultServeUnit; units in
// other processes (Executor::remote(): MPI ranks) about a 16th of the study, at least 256
// points, so that the ranks share even a small one (both sides plan the same).
std::uint64_t serve_unit_size(const ServeStudyOptions& options, std::uint64_t total) {
  if (options.unit_size > 0) return options.unit_size;
  if (options.executor && options.executor->remote())
    return std::clamp<std::uint64_t>((total + 15) / 16, 256, kDefaultServeUnit);
  return kDefaultServeUnit;
}

// A serving unit's summary carried from the process that computed it to the merge
// (Executor::remote()): saved and released there, loaded here.
UnitCodec serve_codec(std::vector<std::unique_ptr<ServeSummary>>& outcomes, const Session& session,
                      const ServeStudyOptions& options, const std::vector<Direction>& dirs,
                      std::uint64_t total, std::uint64_t unit_size) {
  auto unit_points = [=](std::size_t u) { return std::min(total, (u + 1) * unit_size) - u * unit_size; };
  return {.save =
              [&outcomes](std::size_t u, ByteWriter& w) {
                outcomes.at(u)->save(w);
                outcomes[u].reset();
              },
          .load =
              [&outcomes, &session, &options, &dirs, unit_points](std::size_t u, ByteReader& r) {
                auto o = std::make_unique<ServeSummary>(session, options, dirs, true, unit_points(u));
                o->load(r);
                outcomes.at(u) = std::move(o);
              },
          .describe =
              [=](std::size_t u) {
                return "serving points " + std::to_string(u * unit_size + 1) + "-" +
                       std::to_string(u * unit_size + unit_points(u)) + " of " + std::to_string(total);
              },
          .everywhere = options.merged_everywhere};
}

}  // namespace

ServeResult run_serve_study(const Session& session, const ServeStudyOptions& options) {
  const Scenario& scenario = session.scenario();
  ServeResult result;
  result.objectives = session.evaluator().objectives();
  result.axes = study_axes(result.objectives);
  result.max_pes = options.max_pes >= 0 ? options.max_pes : scenario.serving.max_pes;
  const ServingEvaluator evaluator(session, scenario.serving.slo);
  const GridSpace space(scenario.sweep, session.model(), session.machine(), session.workload());
  result.counts.enumerated = space.enumerated();
  result.counts.configurations = space.valid_count();
  const std::vector<ParallelConfig> configs =
      budgeted_configs(space, result.max_pes, scenario, result.counts);
  std::vector<double> rates;
  const std::vector<ServingPoint> points =
      serving_points(scenario.sweep, scenario.serving.speculative, &rates);
  result.counts.points = points.size();
  const std::uint64_t total = static_cast<std::uint64_t>(configs.size()) * points.size();
  const std::size_t batch = static_cast<std::size_t>(
      std::min<std::uint64_t>(std::max<std::size_t>(1, options.batch), std::max<std::uint64_t>(1, total)));

  std::vector<Direction> dirs;
  for (const ServeAxis& a : result.axes) dirs.push_back(a.direction);
  ServeSummary summary(session, options, dirs, false);

  // Evaluates the points [first, last) of the study's order into `into`, a batch at a time.
  const auto evaluate_range = [&](std::uint64_t first, std::uint64_t last, ServeWorker& w, ServeSummary& into,
                                  const ProgressCallback& progress) {
    for (std::uint64_t from = first; from < last; from += batch) {
      throw_if_cancelled();
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(batch, last - from));
      w.pool.run_indexed(n, [&](std::size_t begin, std::size_t end, std::size_t thread) {
        ServingEvaluation& e = *w.buffers[thread];
        for (std::size_t i = begin; i < end; ++i) {
          const std::uint64_t key = from + i;
          mark_config(
              configs[key / points.size()]);  // a worker's crash report names it (host/call_trace.hpp)
          evaluator.evaluate(configs[key / points.size()], points[key % points.size()], e);
          fill_serve_record(e, result.axes, key, rates[key % points.size()], w.slots[i]);
        }
      });
      throw_if_cancelled();  // the batch may be incomplete
      for (std::size_t i = 0; i < n; ++i) into.offer(w.slots[i]);
      report_progress(progress, into.evaluated(), total, "serving points");
    }
  };

  // The plan: the study's points in work units of unit_size, merged in the study's order.
  const std::uint64_t unit_size = serve_unit_size(options, total);
  if (total <= unit_size) {
    ServeWorker w(options.threads, batch);
    evaluate_range(0, total, w, summary, options.on_progress);
  } else {
    const std::size_t units = static_cast<std::size_t>((total + unit_size - 1) / unit_size);
    ThreadExecutor own(options.threads);
    Executor& executor = options.executor ? *options.executor : own;
    std::vector<std::unique_ptr<ServeWorker>> workers(executor.workers());
    std::vector<std::unique_ptr<ServeSummary>> outcomes(units);
    const UnitCodec codec = serve_codec(outcomes, session, options, dirs, total, unit_size);
    executor.execute(
        units,
        [&](std::size_t u, const UnitSlot& slot) {
          std::unique_ptr<ServeWorker>& w = workers.at(slot.worker);
          if (!w) w = std::make_unique<ServeWorker>(slot.threads, batch);
          const std::uint64_t first = u * unit_size;
          auto outcome = std::make_unique<ServeSummary>(session, options, dirs, true,
                                                        std::min(total, first + unit_size) - first);
          evaluate_range(first, std::min(total, first + unit_size), *w, *outcome, {});
          outcomes[u] = std::move(outcome);
        },
        [&](std::size_t u) {
          summary.absorb(*outcomes[u]);
          outcomes[u].reset();
          report_progress(options.on_progress, summary.evaluated(), total, "serving points");
        },
        codec);
  }
  throw_if_cancelled();
  summary.finish(result);
  return result;
}

}  // namespace tessera
