// Plugin kinds from text. (The kinds' anchors live in core/sdk/kind_anchors.cpp, plugin_kind_name
// and param_type_name in core/sdk/names.cpp: both in libtessera_sdk.)
#include <optional>
#include <string_view>

#include "host/plugin_registry.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

std::optional<PluginKind> parse_plugin_kind(std::string_view name) {
  for (PluginKind k : kAllPluginKinds)
    if (name == plugin_kind_name(k)) return k;
  return std::nullopt;
}

}  // namespace tessera
