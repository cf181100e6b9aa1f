#include "scenario/sweeps/latency_choices.hpp"

#include <algorithm>

namespace tessera {

std::vector<PluginChoice> latency_choices(const Scenario& scenario, const std::vector<std::string>& names,
                                          const SourceLocation& where) {
  if (names.empty()) return scenario.plugins.latency;
  std::vector<PluginChoice> chosen;
  for (const std::string& n : names) {
    auto it = std::find_if(scenario.plugins.latency.begin(), scenario.plugins.latency.end(),
                           [&](const PluginChoice& c) { return c.name == n; });
    if (it != scenario.plugins.latency.end()) {
      chosen.push_back(*it);
    } else {
      PluginChoice c;
      c.name = n;
      c.where = where;
      chosen.push_back(c);
    }
  }
  return chosen;
}

}  // namespace tessera
