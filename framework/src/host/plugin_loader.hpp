#pragma once
// Loading one plugin library, step by step; each step has its own message naming the path:
//  1. open (rtld_now | rtld_local):
//     cannot load PATH: <dlerror text>
//  2. entry present:
//     PATH is not a Tessera plugin: no tessera_plugin_entry
//  3. ABI equal (only the two leading integers are read before this):
//     PATH: plugin latency/x was built for ABI 3, host has ABI 1: rebuild it against this SDK
//  4. descriptor size of this ABI:
//     PATH: plugin latency/x has a 80-byte descriptor, host expects 88 for ABI 1: rebuild it ...
//  5. kind known:
//     PATH: plugin x has unknown kind 9 (host knows latency, memory, search, objective, serving)
//  6. kind interface version supported:
//     PATH: plugin latency/x was built for latency interface version 2, host supports version 1: ...
//  7. descriptor sane (names, versions, factory, parameter schemas):
//     PATH: plugin latency/x: default '-1' of parameter 'alpha' is outside its range [0, 1]
// Registration (duplicate ids) is the registry's step.
#include <optional>
#include <string>

#include "host/plugin_registry.hpp"

namespace tessera {

struct PluginLoadResult {
  std::optional<LoadedPlugin> plugin;  // set on success
  std::string error;                   // the message on failure
};

// `outside_shipped`: the library is not in the shipped plugin folder (probed first when
// plugin_load_probe_outside_shipped() is on, host/load_probe.hpp).
PluginLoadResult load_plugin_library(const std::string& path, bool outside_shipped = true);

}  // namespace tessera
