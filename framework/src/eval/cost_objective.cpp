#include "eval/cost_objective.hpp"

#include "host/plugin_defaults.hpp"

namespace tessera {

std::shared_ptr<Objective> create_cost_objective(const Scenario& scenario, const PluginRegistry& registry) {
  for (const auto& o : scenario.plugins.objectives)
    if (o.name == plugin_defaults::kCostObjective) return registry.create_objective(o);
  PluginChoice c;
  c.name = plugin_defaults::kCostObjective;
  return registry.create_objective(c);
}

}  // namespace tessera
