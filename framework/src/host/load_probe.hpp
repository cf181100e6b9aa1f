#pragma once
// Probing a plugin library in a child process before loading it in this one. A static
// initialiser that throws while dlopen runs it cannot be caught (plugin_loader.cpp): the
// process ends. The CLI accepts that (it says which library and exits 1); a host that must
// outlive a bad library — the Python module, whose process is the user's interpreter — turns
// the probe on: each library is first opened by a fork()ed child, and a library whose
// initialisers throw or crash there becomes a load failure (PluginRegistry::failures(), its
// message containing kInitialiserFailure) instead of the end of the process.
#include <optional>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

// Off by default (the CLI); the Python module sets it once at import.
TESSERA_API void set_plugin_load_probe(bool on);
TESSERA_API bool plugin_load_probe();

// Words every probe failure's message contains (the module raises PluginError for them).
inline constexpr std::string_view kInitialiserFailure = "static initialiser";

// Opens `path` in a child process: nullopt when the child's dlopen returned (whether or not
// it loaded the library: the real load reports its errors), else the failure's message.
std::optional<std::string> probe_plugin_library(const std::string& path);

}  // namespace tessera
