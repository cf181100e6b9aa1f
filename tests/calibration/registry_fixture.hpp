#pragma once
// The build tree's plugins, discovered once for the calibration tests.
#include "host/plugin_registry.hpp"

namespace tessera::test {

inline PluginRegistry& registry() {
  static PluginRegistry r;
  static const bool once = [] {
    r.discover();
    return true;
  }();
  (void)once;
  return r;
}

}  // namespace tessera::test
