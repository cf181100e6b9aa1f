#pragma once
// Hardware axes and machine blocks that name plugins, checked once plugins are loaded: a
// sweep.hardware axis machine.plugins.<plugin>.<param> is typed and ranged by the plugin's
// machine schema, one plugins.<kind>.[<name>.]<param> by the scenario plugin's parameter schema
// (units included), located at the scenario's line:col.
#include <string>
#include <vector>

#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera {

// Fills the values of the plugin-typed axes of `sweep` (SI); problems appended. A
// machine-block axis is typed by its latency plugin's machine schema; a scenario-plugin axis
// (plugins.latency.<name>.<param>, plugins.objectives.<name>.<param>, plugins.memory.<param>,
// plugins.search.<param>) by the parameter schema of the plugin `plugins` chooses (a latency
// model or objective must be one of the scenario's; memory and search: the chosen one).
TESSERA_API void resolve_plugin_axes(Sweep& sweep, const PluginChoices& plugins,
                                     const PluginRegistry& registry, std::vector<Diagnostic>& diagnostics);

// The schema of a parameter that a scenario-plugin axis or sensitivity knob names; nullptr when
// the plugin or parameter is not there.
TESSERA_API const ParamSpec* plugin_param_spec(const PluginRegistry& registry, PluginKind kind,
                                               const std::string& plugin, const std::string& param);

// `tessera validate`'s check of the machine's blocks: a block of a latency plugin is validated
// against its machine schema; a block for a name close to an installed plugin's is an error
// with "did you mean"; a block for any other name is returned as a warning (a plugin not
// installed here).
TESSERA_API void check_machine_blocks(const std::vector<MachineBlock>& blocks,
                                      const std::string& machine_file, const PluginRegistry& registry,
                                      std::vector<Diagnostic>& errors, std::vector<Diagnostic>& warnings);

}  // namespace tessera
