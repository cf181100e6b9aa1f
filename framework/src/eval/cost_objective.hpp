#pragma once
// The objective `explore` prices each hardware point's best configuration with: the scenario's
// cost objective when it lists one (its parameters), else the cost plugin with its defaults.
#include <memory>

#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/objective.hpp"

namespace tessera {

TESSERA_API std::shared_ptr<Objective> create_cost_objective(const Scenario& scenario,
                                                             const PluginRegistry& registry);

}  // namespace tessera
