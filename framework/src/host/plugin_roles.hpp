#pragma once
// The roles a plugin declares beside its kind (tessera/plugin/descriptor.hpp, docs/plugin-guide.md
// "Roles"), checked when it loads and read by the host wherever a role matters: which machine
// block a latency model reads, which model it falls back on, whether its predictions carry an
// error band, what `tessera calibrate` may fit. The host names no plugin: it asks these.
#include <string>
#include <string_view>
#include <vector>

#include "host/machine_blocks.hpp"
#include "tessera/export.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

class PluginRegistry;

// The machine-file keys a latency plugin may declare as its machine block's other name
// (PluginDescriptor::machine_block_key): the older `efficiency:` block.
inline constexpr std::string_view kMachineBlockKeys[] = {"efficiency"};

// What is wrong with a descriptor's roles ("" when nothing): unknown role bits, roles on a kind
// that takes none, a fallback without its factory (or the reverse), a machine-block key the
// machine file does not have, fit entries that name no declared parameter or an empty range.
TESSERA_API std::string role_problems(const PluginDescriptor& d);

// Fallbacks are followed at most this deep: creating a plugin whose chain is longer (or a cycle)
// fails naming it; a plugin falling back on itself is refused at load.
inline constexpr int kMaxFallbackDepth = 4;

// The latency plugin `name` falls back on (its descriptor's fallback), or "" when none.
TESSERA_API std::string fallback_of(const PluginRegistry& registry, const std::string& name);

// The machine block latency plugin `name` reads: its own (`plugins.<name>`), else the block under
// the key its descriptor declares (`efficiency:`), else its fallback's; nullptr when none.
TESSERA_API const MachineBlock* machine_block_for(const PluginRegistry& registry,
                                                  const std::vector<MachineBlock>& blocks,
                                                  const std::string& name);

// The plugin whose machine schema validates `name`'s block: `name` itself when it declares
// machine parameters, else its fallback's schema owner; `name` when neither has any.
TESSERA_API std::string machine_schema_owner(const PluginRegistry& registry, const std::string& name);

// How a machine file spells the block `name` reads when it has none: "efficiency" for a
// plugin that declares that key, "plugins.<name>" otherwise.
TESSERA_API std::string machine_block_spelling(const PluginRegistry& registry, const std::string& name);

// Whether latency plugin `name` declares `role` (false for a plugin not loaded).
TESSERA_API bool has_role(const PluginRegistry& registry, const std::string& name, PluginRole role);

// Machine blocks given twice: both `plugins.<name>` and the key a loaded plugin declares for it.
TESSERA_API void check_block_aliases(const PluginRegistry& registry, const std::vector<MachineBlock>& blocks,
                                     std::vector<Diagnostic>& diagnostics);

}  // namespace tessera
