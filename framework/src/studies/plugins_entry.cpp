#include "studies/plugins_entry.hpp"

#include "studies/documents/plugin_listing.hpp"

namespace tessera::studies {

PluginsResult plugins(const PluginRegistry& registry, std::optional<PluginKind> kind) {
  PluginsResult r;
  for (PluginKind k : kAllPluginKinds)
    if (!kind || *kind == k)
      for (const LoadedPlugin* p : registry.plugins_of(k)) r.plugins.push_back(p);
  r.document = plugins_json(r.plugins);
  return r;
}

}  // namespace tessera::studies
