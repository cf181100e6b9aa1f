#pragma once
// Probing a plugin library in a child process before loading it in this one. A static
// initialiser that throws, aborts, exits or never returns while dlopen runs it cannot be caught
// (plugin_loader.cpp): the process would end or hang. A host that must outlive a bad library
// turns the probe on: each library is first opened by a fork()ed child, and a library whose
// initialisers throw, crash, exit or pass plugin.probe_seconds there becomes a load failure
// (PluginRegistry::failures(), its message containing kInitialiserFailure) reported by name,
// instead of the end of the process. The Python module (the user's interpreter) probes every
// library; the `tessera` executable those outside the shipped plugin folder.
#include <optional>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

// Every library probed: off by default; the Python module sets it once at import.
TESSERA_API void set_plugin_load_probe(bool on);
TESSERA_API bool plugin_load_probe();
// The libraries outside the shipped plugin folder probed (the shipped ones are built with the
// host and trusted): off by default; the `tessera` executable sets it at start.
TESSERA_API void set_plugin_load_probe_outside_shipped(bool on);
TESSERA_API bool plugin_load_probe_outside_shipped();

// A probe whose library has not returned from its initialisers after the limit
// plugin.probe_seconds (default 10 s) is ended (a static initialiser that never returns): the
// library is a load failure.

// Words every probe failure's message contains (the module raises PluginError for them).
inline constexpr std::string_view kInitialiserFailure = "static initialiser";

// Opens `path` in a child process: nullopt when the child's dlopen returned (whether or not
// it loaded the library: the real load reports its errors), else the failure's message.
std::optional<std::string> probe_plugin_library(const std::string& path);

}  // namespace tessera
