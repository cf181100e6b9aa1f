#include "studies/entries/plugins_entry.hpp"

#include <string_view>

#include "core/text/nearest_name.hpp"
#include "host/machine_blocks.hpp"
#include "host/param_check.hpp"
#include "studies/json/plugin_listing.hpp"
#include "tessera/error.hpp"

namespace tessera::studies {

PluginsResult plugins(const PluginRegistry& registry, std::optional<PluginKind> kind) {
  PluginsResult r;
  for (PluginKind k : kAllPluginKinds)
    if (!kind || *kind == k)
      for (const LoadedPlugin* p : registry.plugins_of(k)) r.plugins.push_back(p);
  r.document = plugins_json(r.plugins);
  return r;
}

PluginKind plugin_kind(const std::string& text) {
  const std::optional<PluginKind> kind = parse_plugin_kind(text);
  if (kind) return *kind;
  std::vector<std::string> kinds;
  for (const PluginKind k : kAllPluginKinds) kinds.emplace_back(plugin_kind_name(k));
  throw InputError("unknown kind '" + text + "'" + did_you_mean(text, kinds) +
                   "; kinds: " + plugin_kind_list());
}

std::string param_range(const ParamSpec& spec) { return param_range_text(spec); }

const char* param_unit_text(const ParamSpec& spec) { return param_unit(spec); }

std::string machine_block_key(const PluginDescriptor& d) {
  return d.machine_block_key ? d.machine_block_key : "";
}

std::string fallback_name(const PluginDescriptor& d) { return d.fallback ? d.fallback : ""; }

}  // namespace tessera::studies
