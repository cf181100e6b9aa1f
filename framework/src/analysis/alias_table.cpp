// Reading the alias table (analysis/alias_table.hpp).
#include "analysis/alias_table.hpp"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "tessera/error.hpp"

namespace tessera::validation {

namespace fs = std::filesystem;

std::string default_aliases_path(const std::string& data_root) {
  return (fs::path(data_root) / "data" / "aliases.yaml").string();
}

Aliases load_aliases(const std::string& path) {
  Aliases a;
  a.file = path;
  YAML::Node root;
  try {
    root = YAML::LoadFile(path);
  } catch (const YAML::Exception& e) {
    throw InputError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                     ": error: " + e.msg);
  }
  auto where = [&](const YAML::Node& n) {
    return path + ":" + std::to_string(n.Mark().line + 1) + ":" + std::to_string(n.Mark().column + 1);
  };
  if (!root.IsMap() || !root["kind"] || root["kind"].as<std::string>() != "aliases")
    throw InputError(path + ": error: expected `kind: aliases` (an alias table, see docs/accuracy.md)");
  auto read = [&](const char* section, const char* match_key, const char* target_key,
                  std::vector<AliasRule>& out) {
    const YAML::Node list = root[section];
    if (!list) return;
    if (!list.IsSequence())
      throw InputError(where(list) + ": error: `" + std::string(section) + "` must be a list");
    for (const YAML::Node& item : list) {
      if (!item.IsMap() || !item[match_key])
        throw InputError(where(item) + ": error: each `" + section + "` entry needs `" + match_key + ":`");
      AliasRule r;
      r.match = item[match_key].as<std::string>();
      if (item["locator"]) r.locator = item["locator"].as<std::string>();
      if (item["unmapped"]) {
        r.unmapped = item["unmapped"].as<std::string>();
      } else if (item[target_key]) {
        r.target = item[target_key].as<std::string>();
      } else {
        throw InputError(where(item) + ": error: `" + section + "` entry '" + r.match + "' needs `" +
                         target_key + ":` or `unmapped:`");
      }
      out.push_back(std::move(r));
    }
  };
  try {
    read("models", "match", "model", a.models);
    read("hardware", "match", "machine", a.hardware);
    read("frameworks", "software", "framework", a.frameworks);
  } catch (const YAML::Exception& e) {
    throw InputError(path + ": error: " + e.msg);
  }
  return a;
}

}  // namespace tessera::validation
