#include "studies/json/provenance.hpp"

#include <algorithm>
#include <vector>

#include "core/build_info.hpp"
#include "core/text/safe_text.hpp"
#include "tessera/version.hpp"

namespace tessera {
namespace provenance_rows {

// The plugins loaded so far (copied under the registry's lock), by id.
std::vector<LoadedPlugin> sorted_plugins(const PluginRegistry& registry) {
  std::vector<LoadedPlugin> out = registry.loaded();
  std::sort(out.begin(), out.end(), [](const LoadedPlugin& a, const LoadedPlugin& b) {
    const std::string ia = a.id(), ib = b.id();
    return ia != ib ? ia < ib : a.path < b.path;
  });
  return out;
}

// A descriptor's text as JSON can hold it (null: "", bytes that are not UTF-8 escaped).
std::string text(const char* s) { return s ? printable_text(s) : std::string(); }

}  // namespace provenance_rows

nlohmann::json provenance_json(const PluginRegistry& registry) {
  nlohmann::json plugins = nlohmann::json::array();
  for (const LoadedPlugin& p : provenance_rows::sorted_plugins(registry)) {
    const PluginDescriptor& d = *p.descriptor;
    using provenance_rows::text;
    // Both taken when the library was loaded: the file the process runs.
    const std::string& path = p.absolute_path.empty() ? p.path : p.absolute_path;
    const std::optional<std::string>& digest = p.sha256;
    plugins.push_back({{"id", printable_text(p.id())},
                       {"kind", plugin_kind_name(d.kind)},
                       {"name", text(d.name)},
                       {"version", text(d.version)},
                       {"framework_version", text(d.framework_version)},
                       {"path", printable_text(path)},
                       {"sha256", digest ? nlohmann::json(*digest) : nlohmann::json(nullptr)}});
    // Only for a library that replaced a shipped plugin (--plugin-override): the shipped file.
    if (!p.replaces.empty()) plugins.back()["replaces"] = printable_text(p.replaces);
  }
  return {{"tessera",
           {{"version", kVersion},
            {"commit", build_commit()},
            {"build_type", build_type()},
            {"sanitizers", build_sanitizers()},
            {"compiler", build_compiler()}}},
          {"plugins", plugins}};
}

std::string provenance_comment(const PluginRegistry& registry) {
  const nlohmann::json j = provenance_json(registry);
  const nlohmann::json& t = j["tessera"];
  std::string s = "# tessera " + t["version"].get<std::string>() + ", commit " +
                  t["commit"].get<std::string>() + ", build " + t["build_type"].get<std::string>() +
                  ", sanitizers " + t["sanitizers"].get<std::string>() + ", compiler " +
                  t["compiler"].get<std::string>() + "\n";
  // No path: a file regenerated in another checkout stays the same where the libraries are.
  for (const nlohmann::json& p : j["plugins"])
    s += "# plugin " + p["id"].get<std::string>() + " " + p["version"].get<std::string>() + " sha256 " +
         (p["sha256"].is_null() ? std::string("unreadable") : p["sha256"].get<std::string>()) + "\n";
  return s;
}

}  // namespace tessera
