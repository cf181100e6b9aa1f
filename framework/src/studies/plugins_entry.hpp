#pragma once
// `plugins`' façade entry (docs/architecture.md "The study façade"): the plugins a registry has
// found, of one kind or every kind in kind order, and their `--json` listing
// (studies/documents/plugin_listing.hpp). The caller discovers first (PluginRegistry::discover:
// the CLI quiets the log while it does). The CLI (`tessera plugins`) and Python
// (`tessera.plugins()`) both call it.
#include <optional>
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

}  // namespace tessera::studies
