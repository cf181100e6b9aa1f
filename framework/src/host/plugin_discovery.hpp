#pragma once
// Where plugins are looked for, and which files in a folder are plugins.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

// The search path, in order: `extra` (--plugin-path), TESSERA_PLUGIN_PATH (':'-separated),
// the build tree's plugin folder (only for a program of that build tree, run from its bin/:
// an installed tessera never scans a build tree), <program bin dir>/../lib/tessera/plugins. The
// program's bin dir is the executable's folder, or <prefix>/bin of the prefix an embedding host
// (the Python module) set (core/program_location.hpp).
// With `default_locations` false only `extra`. Each folder appears once (the first time it is
// named; two spellings of one folder count as one), as an absolute, normalised path.
TESSERA_API std::vector<std::string> plugin_search_path(const std::vector<std::string>& extra,
                                                        bool default_locations);

// The folder of the shipped plugins: <program bin dir>/../lib/tessera/plugins (the build tree's
// own plugins for a program of the build, the installed ones for an installed tessera); "" when
// the program's location is unknown. Part of the default search path.
TESSERA_API std::string shipped_plugin_dir();

// The plugin a library's file name says it provides (libtessera_<kind>_<name>.so), or nullopt
// for a file named otherwise.
struct NamedPlugin {
  PluginKind kind;
  std::string name;
};
TESSERA_API std::optional<NamedPlugin> plugin_named_by_file(const std::string& path);

// The framework's own libraries (libtessera_sdk.so, libtessera_host.so): their names start like a
// plugin's, but a folder's listing never offers them as plugins.
TESSERA_API bool is_framework_library(std::string_view file);

// The files of `folder` named libtessera_*.so, sorted by name, the framework's own libraries left
// out; none when it does not exist.
TESSERA_API std::vector<std::string> plugin_files_in(const std::string& folder);

// Whether the library at `path` may provide the plugin <kind>/<name> (any name of `kind` when
// `name` is empty), judged by its file name alone: libtessera_<kind>_<name>.so (what
// tessera_add_plugin(NAME <kind>_<name>) builds) provides that plugin only; a file named
// libtessera_<other kind>_*.so never provides a plugin of `kind`; a file whose name after
// `libtessera_` does not start with a kind and '_' may provide anything.
TESSERA_API bool library_may_provide(const std::string& path, PluginKind kind, const std::string& name);

// The canonical spelling of a path used to recognise one file reached twice (symlinks).
TESSERA_API std::string canonical_key(const std::string& path);

}  // namespace tessera
