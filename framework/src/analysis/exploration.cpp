#include "analysis/exploration.hpp"

#include "core/pareto.hpp"
#include "scenario/hardware_points.hpp"
#include "scenario/sweep_size.hpp"

namespace tessera {

ExploreResult explore_hardware(const Session& session, const SearchStrategy& strategy, const Objective& cost,
                               const ExploreOptions& options) {
  const Sweep& sweep = session.scenario().sweep;
  SearchOptions so = options.search;
  so.on_progress = nullptr;  // the progress is over the hardware points
  ExploreResult result;
  Evaluation scratch;
  const std::uint64_t total_points = sweep_hardware_points(sweep);
  report_progress(options.on_progress, 0, total_points, "hardware points");
  for (std::uint64_t i = 0; i < total_points; ++i) {
    const HardwarePoint hp = hardware_point(sweep, session.machine(), i, session.latency_name());
    ExplorePoint p;
    p.values = hp.values;
    const auto s = session.with_machine(hp.machine);
    const SearchResult r = run_search(*s, strategy, so);
    p.counts = r.counts;
    if (r.best) {
      p.feasible = true;
      p.best = r.records[*r.best];
      s->evaluator().evaluate(p.best.config, scratch);
      try {
        p.cost = cost.evaluate(
            s->context(), p.best.config,
            EvaluatedStep{.stages = scratch.stages, .totals = scratch.totals, .memory = scratch.memory});
      } catch (const PluginError& e) {
        throw_at_configuration(e, p.best.config, s->machine());
      }
    }
    result.points.push_back(std::move(p));
    report_progress(options.on_progress, result.points.size(), total_points, "hardware points");
  }
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
