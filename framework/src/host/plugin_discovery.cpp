// Plugin discovery: the search path and the plugin files of each folder.
#include "host/plugin_discovery.hpp"
#include "tessera_build_paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string_view>
#include <system_error>

#include "core/program_location.hpp"

namespace fs = std::filesystem;

#ifndef TESSERA_INSTALL_PLUGIN_RELDIR
#define TESSERA_INSTALL_PLUGIN_RELDIR "lib/tessera/plugins"
#endif

namespace tessera {
namespace {

std::string normalised(const std::string& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(fs::path(p), ec);
  if (ec) abs = fs::path(p);
  std::string s = abs.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

std::vector<std::string> split_path_list(std::string_view list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t colon = list.find(':', start);
    const std::size_t end = colon == std::string_view::npos ? list.size() : colon;
    if (end > start) out.emplace_back(list.substr(start, end - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  return out;
}

// The running program's bin/ folder (core/program_location.hpp: the executable's, or the
// embedding host's prefix's).
std::string executable_relative_plugin_dir() {
  const std::string bin = program_bin_dir();
  if (bin.empty()) return {};
  return (fs::path(bin) / ".." / TESSERA_INSTALL_PLUGIN_RELDIR).lexically_normal().string();
}

}  // namespace

std::string canonical_key(const std::string& path) {
  std::error_code ec;
  const fs::path c = fs::weakly_canonical(fs::path(path), ec);
  return ec ? normalised(path) : c.string();
}

std::vector<std::string> plugin_search_path(const std::vector<std::string>& extra, bool default_locations) {
  std::vector<std::string> candidates = extra;
  if (default_locations) {
    if (const char* env = std::getenv("TESSERA_PLUGIN_PATH")) {
      for (auto& p : split_path_list(env)) candidates.push_back(std::move(p));
    }
    // The build tree's plugins lie where an installed tessera's do (lib/tessera/plugins beside
    // bin/): a program of the build, or a copy of it elsewhere, finds those beside itself.
    if (auto p = executable_relative_plugin_dir(); !p.empty()) candidates.push_back(std::move(p));
  }
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& c : candidates) {
    if (c.empty()) continue;
    std::string key = canonical_key(c);
    while (key.size() > 1 && key.back() == '/') key.pop_back();
    if (seen.insert(key).second) out.push_back(normalised(c));
  }
  return out;
}

std::string shipped_plugin_dir() { return executable_relative_plugin_dir(); }

std::optional<NamedPlugin> plugin_named_by_file(const std::string& path) {
  const std::string file = fs::path(path).filename().string();
  constexpr std::string_view prefix = "libtessera_", suffix = ".so";
  if (file.size() < prefix.size() + suffix.size() || file.compare(0, prefix.size(), prefix) != 0 ||
      file.compare(file.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  const std::string stem = file.substr(prefix.size(), file.size() - prefix.size() - suffix.size());
  for (PluginKind k : kAllPluginKinds) {
    const std::string kind_prefix = std::string(plugin_kind_name(k)) + "_";
    if (stem.size() > kind_prefix.size() && stem.compare(0, kind_prefix.size(), kind_prefix) == 0)
      return NamedPlugin{k, stem.substr(kind_prefix.size())};
  }
  return std::nullopt;
}

bool library_may_provide(const std::string& path, PluginKind kind, const std::string& name) {
  const std::optional<NamedPlugin> named = plugin_named_by_file(path);
  if (!named) return true;  // named otherwise: it may be anything
  if (named->kind != kind) return false;
  return name.empty() || named->name == name;
}

bool is_framework_library(std::string_view file) {
  return file == "libtessera_sdk.so" || file == "libtessera_host.so";
}

std::vector<std::string> plugin_files_in(const std::string& folder) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return files;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    constexpr std::string_view prefix = "libtessera_", suffix = ".so";
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    if (is_framework_library(name)) continue;  // the SDK and host libraries, never a plugin
    std::error_code fec;
    if (!fs::is_regular_file(it->path(), fec)) continue;  // follows symlinks
    files.push_back(it->path().lexically_normal().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace tessera
