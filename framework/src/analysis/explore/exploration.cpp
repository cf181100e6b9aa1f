#include "analysis/explore/exploration.hpp"

#include <optional>

#include "core/executor.hpp"
#include "core/statistics/pareto.hpp"
#include "host/plugin_defaults.hpp"
#include "scenario/sweeps/hardware_points.hpp"
#include "scenario/sweeps/sweep_size.hpp"

namespace tessera {

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
  executor.execute(
      outcomes.size(),
      [&](std::size_t i, const UnitSlot& slot) {
        const HardwarePoint hp = hardware_point(sweep, session.machine(), i, session.machine_block_owner());
        ExplorePoint p;
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
        outcomes[i] = std::move(p);
      },
      [&](std::size_t i) {
        result.points.push_back(std::move(*outcomes[i]));
        outcomes[i].reset();
        report_progress(options.on_progress, result.points.size(), total_points, "hardware points");
      });
  std::vector<double> values;
  for (const auto& p : result.points) {
    values.push_back(p.feasible ? p.best.latency_s : NAN);
    values.push_back(p.cost);
  }
  const std::vector<Direction> dirs{Direction::minimize, Direction::minimize};
  result.pareto = pareto_front(values, 2, dirs);

  if (options.sensitivity) {
    so.on_progress = options.on_progress;
    const SearchResult base = run_search(session, strategy, so);
    if (base.best)
      result.hardware = hardware_sensitivity(session, strategy, base.records[*base.best].config, so);
  }
  return result;
}

}  // namespace tessera
