#pragma once
// Loading one plugin library, step by step, each step with its own message naming the path:
//   open (rtld_now | rtld_local)   cannot load PATH: <dlerror text>
//   entry present                  PATH is not a Tessera plugin: no tessera_plugin_entry
//   ABI equal                      PATH: plugin latency/x was built for ABI 3, host has ABI 1: rebuild it against this SDK
//   descriptor size                PATH: plugin latency/x has a 96-byte descriptor, host expects 104 for ABI 1: rebuild it against this SDK
//   kind known                     PATH: plugin x has unknown kind 9 (host knows latency, memory, search, objective)
//   kind interface supported       PATH: plugin latency/x was built for latency interface version 2, host supports version 1: rebuild it against this SDK
//   descriptor sane                PATH: plugin latency/x: default '-1' of parameter 'alpha' is outside its range [0, 1]
// Registration (duplicate ids) is the registry's step.
#include <optional>
#include <string>

#include "host/plugin_registry.hpp"

namespace tessera {

struct PluginLoadResult {
  std::optional<LoadedPlugin> plugin;  // set on success
  std::string error;                   // the message on failure
};

PluginLoadResult load_plugin_library(const std::string& path);

}  // namespace tessera
