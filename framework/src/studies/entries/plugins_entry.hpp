#pragma once
// `plugins`' façade entry (docs/architecture.md "The study façade"): the plugins a registry has
// found, of one kind or every kind in kind order, and their `--json` listing
// (studies/json/plugin_listing.hpp). The caller discovers first (PluginRegistry::discover:
// the CLI quiets the log while it does). The CLI (`tessera plugins`) and Python
// (`tessera.plugins()`) both call it.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

struct PluginsResult {
  std::vector<const LoadedPlugin*> plugins;
  nlohmann::json document;  // the listing, as `tessera plugins --json` prints it
};

TESSERA_API PluginsResult plugins(const PluginRegistry& registry, std::optional<PluginKind> kind = {});

// The kind `--kind` names; InputError "unknown kind 'X'; did you mean ...; kinds: ..." otherwise.
TESSERA_API PluginKind plugin_kind(const std::string& text);

// A parameter's range as the listing shows it ("[0, 1]", "> 0"; host/param_check.hpp) and
// its unit ("" when it has none).
TESSERA_API std::string param_range(const ParamSpec& spec);
TESSERA_API const char* param_unit_text(const ParamSpec& spec);

// The other machine-file key a plugin's machine parameters may be given under, beside
// `plugins: {NAME: {...}}` (its descriptor's machine_block_key: `efficiency`), or "" when none.
TESSERA_API std::string machine_block_key(const PluginDescriptor& d);
// The plugin a latency plugin falls back on (its descriptor's fallback), or "" when none.
TESSERA_API std::string fallback_name(const PluginDescriptor& d);

}  // namespace tessera::studies
