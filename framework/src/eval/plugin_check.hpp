#pragma once
// Every plugin problem of a scenario at once, before any plugin object is created: each
// choice's name (an unknown one at the name in the scenario, with the nearest registered
// name) and parameters (at the value), and the machine's `efficiency:` block against each
// latency model found. `tessera validate` and the study commands (run, explain, compare,
// sensitivity, explore) share it, so they report the same diagnostics.
#include <vector>

#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera {

enum class MissingKind : bool {
  error,  // an unknown name is an error even when no plugin of its kind is installed
  warn,   // `validate` without any plugin of a kind: a warning, the name is not checked
};

// Appends every problem to `diags` (in scenario order: latency, memory, search, objectives,
// serving in serve mode, then the machine's efficiency block).
TESSERA_API void check_scenario_plugins(const Scenario& scenario, const PluginRegistry& registry,
                                        MissingKind missing, std::vector<Diagnostic>& diags);

// The same check, throwing InputErrors with every problem when there is any.
TESSERA_API void require_scenario_plugins(const Scenario& scenario, const PluginRegistry& registry);

}  // namespace tessera
