#pragma once
// The build tree's plugins, discovered once for the calibration tests.
#include <memory>
#include <string>
#include <utility>
#include <vector>

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

// The plugins a validate-data row is predicted with: memory/standard, latency/calibrated (with
// `latency_params`, e.g. {{"framework", "vllm"}}) and the serving model `serving`.
struct RowPlugins {
  std::shared_ptr<const MemoryModel> memory;
  std::shared_ptr<const LatencyModel> latency;
  std::shared_ptr<const ServingModel> serving;
};
inline RowPlugins row_plugins(const std::string& serving,
                              const std::vector<std::pair<std::string, std::string>>& latency_params = {}) {
  RowPlugins p;
  PluginChoice c;
  c.name = "standard";
  p.memory = registry().create_memory(c);
  c.name = "calibrated";
  for (const auto& [key, text] : latency_params) {
    RawParam rp;
    rp.key = key;
    rp.text = text;
    c.params.push_back(rp);
  }
  p.latency = registry().create_latency(c);
  c.params.clear();
  c.name = serving;
  p.serving = registry().create_serving(c);
  return p;
}

}  // namespace tessera::test
