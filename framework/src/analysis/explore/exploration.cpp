#include "analysis/explore/exploration.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "analysis/search/record_bytes.hpp"
#include "core/checkpoint/checkpointed_plan.hpp"
#include "core/executor.hpp"
#include "core/statistics/pareto.hpp"
#include "core/statistics/streaming_front.hpp"
#include "core/statistics/top_n.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/sweeps/hardware_points.hpp"
#include "scenario/sweeps/sweep_size.hpp"

namespace tessera {
namespace {

void write_point(ByteWriter& w, const ExplorePoint& p) {
  w.put(p.index);
  w.put_list(p.values);
  w.put(p.counts);
  w.put(p.feasible);
  write_record(w, p.best);
  w.put(p.cost);
}

// A point read back, checked against the study's grid (`axes` values, index below `total`).
ExplorePoint read_point(ByteReader& r, std::size_t axes, std::uint64_t total) {
  ExplorePoint p;
  p.index = r.get<std::uint64_t>();
  p.values = r.get_list<double>();
  if (p.values.size() != axes || p.index >= total) r.fail();
  p.counts = r.get<SearchCounts>();
  p.feasible = r.get<bool>();
  p.best = read_record(r);
  p.cost = r.get<double>();
  return p;
}

// The points kept (ExploreOptions::keep): all of them, or the best by latency (then cost, then
// the grid's order) and the latency/cost frontier.
struct PointLatencyCost {
  std::array<double, 2> operator()(const ExplorePoint& p) const {
    return {p.feasible ? p.best.latency_s : NAN, p.cost};
  }
};
bool faster(const ExplorePoint& a, const ExplorePoint& b) {
  if (a.best.latency_s != b.best.latency_s) return a.best.latency_s < b.best.latency_s;
  if (a.cost != b.cost) return a.cost < b.cost;
  return a.index < b.index;
}
bool grid_order(const ExplorePoint& a, const ExplorePoint& b) { return a.index < b.index; }

class KeptPoints {
 public:
  KeptPoints(std::size_t keep, std::size_t axes, std::uint64_t total)
      : keep_(keep),
        axes_(axes),
        total_(total),
        top_(keep, faster),
        front_({Direction::minimize, Direction::minimize}, {}) {}
  void offer(ExplorePoint p) {
    ++merged_;
    if (keep_ == 0) {
      all_.push_back(std::move(p));
      return;
    }
    if (p.feasible && std::isfinite(p.best.latency_s)) top_.offer(p);
    front_.offer(p);
  }
  std::uint64_t merged() const { return merged_; }
  void save(ByteWriter& w) const {
    w.put(merged_);
    for (const std::vector<ExplorePoint>* list : {&all_, &top_.items()}) {
      w.put<std::uint64_t>(list->size());
      for (const ExplorePoint& p : *list) write_point(w, p);
    }
    const std::vector<ExplorePoint> front = front_.items();
    w.put<std::uint64_t>(front.size());
    for (const ExplorePoint& p : front) write_point(w, p);
  }
  void load(ByteReader& r) {
    merged_ = r.get<std::uint64_t>();
    if (merged_ > total_) r.fail();
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) all_.push_back(read_point(r, axes_, total_));
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) top_.offer(read_point(r, axes_, total_));
    for (auto n = r.get<std::uint64_t>(); n > 0; --n) front_.offer(read_point(r, axes_, total_));
  }
  // The kept points in the grid's order, and the frontier's positions among them.
  void finish(ExploreResult& result) {
    if (keep_ == 0) {
      result.points = std::move(all_);
    } else {
      std::vector<ExplorePoint> kept = top_.take();
      for (ExplorePoint& p : front_.take(grid_order)) kept.push_back(std::move(p));
      std::sort(kept.begin(), kept.end(), grid_order);
      kept.erase(std::unique(kept.begin(), kept.end(),
                             [](const ExplorePoint& a, const ExplorePoint& b) { return a.index == b.index; }),
                 kept.end());
      result.points = std::move(kept);
    }
    std::vector<double> values;
    for (const auto& p : result.points) {
      values.push_back(p.feasible ? p.best.latency_s : NAN);
      values.push_back(p.cost);
    }
    const std::vector<Direction> dirs{Direction::minimize, Direction::minimize};
    result.pareto = pareto_front(values, 2, dirs);
  }

 private:
  std::size_t keep_;
  std::size_t axes_;
  std::uint64_t total_;
  std::uint64_t merged_ = 0;
  std::vector<ExplorePoint> all_;
  TopN<ExplorePoint, decltype(&faster)> top_;
  StreamingFront<ExplorePoint, PointLatencyCost> front_;
};

// Hardware point i: its session (and the plugins its axes re-create), the search's best
// configuration there and that configuration's cost, on the threads of `slot`.
ExplorePoint explore_point(const Session& session, const SearchStrategy& strategy, const Objective& cost,
                           const SearchOptions& so, std::size_t i, const UnitSlot& slot) {
  const Sweep& sweep = session.scenario().sweep;
  const HardwarePoint hp = hardware_point(sweep, session.machine(), i, session.machine_block_owner());
  ExplorePoint p;
  p.index = i;
  p.values = hp.values;
  const auto s = session.with_point(hp.machine, hp.plugin_params);
  // A plugins.search.<param> or plugins.objectives.<cost>.<param> axis: that plugin re-created too.
  const PluginChoices& plugins = session.scenario().plugins;
  std::shared_ptr<SearchStrategy> own_search;
  std::shared_ptr<Objective> own_cost;
  for (const PluginParamValue& v : hp.plugin_params) {
    if (v.kind == PluginKind::search && !own_search)
      own_search = session.registry().create_search(plugins.search, hp.plugin_params);
    if (v.kind == PluginKind::objective && v.plugin == plugin_defaults::kCostObjective && !own_cost) {
      PluginChoice c;
      c.name = v.plugin;
      for (const auto& o : plugins.objectives)
        if (o.name == v.plugin) c = o;
      own_cost = session.registry().create_objective(c, hp.plugin_params);
    }
  }
  const SearchStrategy& point_search = own_search ? *own_search : strategy;
  const Objective& point_cost = own_cost ? *own_cost : cost;
  SearchOptions unit_options = so;
  unit_options.threads = slot.threads;
  unit_options.executor = nullptr;
  unit_options.on_record = nullptr;
  const SearchResult r = run_search(*s, point_search, unit_options);
  p.counts = r.counts;
  if (r.best) {
    p.feasible = true;
    p.best = r.records[*r.best];
    Evaluation scratch;
    s->evaluator().evaluate(p.best.config, scratch);
    try {
      p.cost = point_cost.evaluate(
          s->context(), s->workload(), p.best.config,
          EvaluatedStep{.stages = scratch.stages, .totals = scratch.totals, .memory = scratch.memory});
    } catch (const PluginError& e) {
      throw_at_configuration(e, p.best.config, s->machine());
    }
  }
  return p;
}

// A hardware point's outcome carried from a worker process to the merge (Executor::remote()):
// the bytes a checkpoint's rows hold.
UnitCodec point_codec(std::vector<std::optional<ExplorePoint>>& outcomes, std::size_t axes,
                      std::uint64_t total) {
  return {.save =
              [&outcomes](std::size_t i, ByteWriter& w) {
                write_point(w, *outcomes.at(i));
                outcomes[i].reset();
              },
          .load = [&outcomes, axes, total](std::size_t i,
                                           ByteReader& r) { outcomes.at(i) = read_point(r, axes, total); },
          .describe =
              [total](std::size_t i) {
                return "hardware point " + std::to_string(i + 1) + " of " + std::to_string(total);
              }};
}

}  // namespace

ExploreResult explore_hardware(const Session& session, const SearchStrategy& strategy, const Objective& cost,
                               const ExploreOptions& options) {
  const Sweep& sweep = session.scenario().sweep;
  SearchOptions so = options.search;
  so.on_progress = nullptr;  // the progress is over the hardware points
  ExploreResult result;
  const std::uint64_t total_points = sweep_hardware_points(sweep);
  report_progress(options.on_progress, 0, total_points, "hardware points");
  // The plan: one work unit per hardware point (its own session and nested search, on the
  // threads the executor gives it), merged in the points' order (docs/architecture.md "Studies:
  // plan, work units, merge").
  std::vector<std::optional<ExplorePoint>> outcomes(static_cast<std::size_t>(total_points));
  ThreadExecutor own(so.threads);
  Executor& executor = options.executor ? *options.executor : own;
  KeptPoints kept(options.keep, sweep.hardware.size(), total_points);
  result.total_points = total_points;
  ByteWriter rows;  // a checkpoint's: the points streamed to on_point since its last record
  const CheckpointHooks hooks{.save = [&](ByteWriter& w) { kept.save(w); },
                              .load = [&](ByteReader& r) { kept.load(r); },
                              .replay =
                                  [&](ByteReader& r) {
                                    while (!r.done())
                                      options.on_point(read_point(r, sweep.hardware.size(), total_points));
                                  },
                              .rows = options.on_point ? &rows : nullptr};
  execute_checkpointed(
      executor, options.checkpoint, outcomes.size(),
      [&](std::size_t i, const UnitSlot& slot) {
        outcomes[i] = explore_point(session, strategy, cost, so, i, slot);
      },
      [&](std::size_t i) {
        if (options.on_point) {
          options.on_point(*outcomes[i]);
          if (options.checkpoint) write_point(rows, *outcomes[i]);
        }
        kept.offer(std::move(*outcomes[i]));
        outcomes[i].reset();
        report_progress(options.on_progress, kept.merged(), total_points, "hardware points");
      },
      hooks, point_codec(outcomes, sweep.hardware.size(), total_points));
  kept.finish(result);

  if (options.sensitivity) {
    so.on_progress = options.on_progress;
    const SearchResult base = run_search(session, strategy, so);
    if (base.best)
      result.hardware = hardware_sensitivity(session, strategy, base.records[*base.best].config, so);
  }
  return result;
}

}  // namespace tessera
