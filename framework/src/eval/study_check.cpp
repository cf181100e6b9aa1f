#include "eval/study_check.hpp"

#include <algorithm>
#include <optional>
#include <string_view>
#include <vector>

#include "eval/grid_space.hpp"
#include "scenario/sweeps/sweep_size.hpp"
#include "tessera/limits.hpp"

namespace tessera {

namespace {

// A hardware axis that changes how many PEs a machine has (a level's fanout or torus extents):
// the grid's validity differs from point to point.
bool resizes_machine(const HardwareAxis& a) {
  const auto ends_with = [&](std::string_view tail) {
    return a.path.size() >= tail.size() &&
           a.path.compare(a.path.size() - tail.size(), tail.size(), tail) == 0;
  };
  return !a.scenario_plugin && a.plugin.empty() && (ends_with(".fanout") || ends_with(".dims"));
}

}  // namespace

ConfigCount count_configurations(const Scenario& scenario, const StudyShape& shape,
                                 std::optional<std::uint64_t> samples) {
  ConfigCount none;
  for (const HardwareAxis& a : scenario.sweep.hardware)
    if (resizes_machine(a)) return none;
  // Stop as soon as the count alone passes the limit (or a sampling search's samples).
  const std::uint64_t per_config = std::max<std::uint64_t>(
      1, saturating_size_mul(saturating_size_mul(shape.machines, shape.latency_models),
                             sweep_serving_points(scenario.sweep)));
  std::uint64_t stop_above = current_limits().max_configs / per_config;
  if (samples) stop_above = std::min(stop_above, *samples);
  // Every machine a configuration may run on: the scenario's, and the pools' own (the most).
  std::vector<const MachineSpec*> machines{&scenario.machine};
  if (scenario.workload.mode == Mode::serve) {
    if (scenario.serving.prefill_machine.given) machines.push_back(&scenario.serving.prefill_machine.machine);
    if (scenario.serving.decode_machine.given) machines.push_back(&scenario.serving.decode_machine.machine);
  }
  ConfigCount most;
  for (const MachineSpec* m : machines) {
    const GridSpace::ValidCount n =
        GridSpace::count_valid(scenario.sweep, scenario.model, *m, scenario.workload, stop_above);
    if (n.configurations >= most.configurations) {
      most.configurations = n.configurations;
      most.more = n.more;
    }
    most.tuples = std::max<std::uint64_t>(1, n.tuples);
  }
  return most;
}

WorkSize check_study(const Scenario& scenario, const PluginRegistry& registry, const std::string& study,
                     const StudyShape& shape, std::vector<Diagnostic>& diags) {
  // A sampling search (one that declares `samples`) evaluates at most that many per machine.
  std::optional<std::uint64_t> samples;
  std::vector<Diagnostic> ignored;
  const ParamSet params = registry.check_choice(PluginKind::search, scenario.plugins.search, ignored);
  if (ignored.empty() && params.has("samples")) {
    const std::int64_t n = params.integer("samples");
    samples = static_cast<std::uint64_t>(std::max<std::int64_t>(0, n));
    if (*samples > current_limits().search_samples) {
      SourceLocation where = scenario.plugins.search.where;
      for (const RawParam& p : scenario.plugins.search.params)
        if (p.key == "samples") where = p.where;
      diags.push_back({where, "plugins.search.samples: " + std::to_string(*samples) + " samples " +
                                  limit_exceeded("search.samples")});
    }
  }
  const ConfigCount count = count_configurations(scenario, shape, samples);
  const WorkSize w = size_work(scenario.sweep, shape.machines, shape.latency_models, samples,
                               count.tuples > 0 ? &count : nullptr);
  if (w.evaluations > current_limits().max_configs)
    diags.push_back({SourceLocation{scenario.file.empty() ? std::string("<scenario>") : scenario.file, 0, 0},
                     study + ": " + describe_work(w) + ", which " + limit_exceeded("max_configs")});
  return w;
}

}  // namespace tessera
