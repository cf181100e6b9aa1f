#include "eval/plugin_check.hpp"

#include <spdlog/spdlog.h>

namespace tessera {

void check_scenario_plugins(const Scenario& s, const PluginRegistry& registry, MissingKind missing,
                            std::vector<Diagnostic>& diags) {
  const auto check = [&](PluginKind kind, const PluginChoice& c) {
    if (missing == MissingKind::warn && !registry.find(kind, c.name) && registry.names(kind).empty()) {
      spdlog::warn("no {} plugins found: '{}' not checked", plugin_kind_name(kind), c.name);
      return;
    }
    registry.check_choice(kind, c, diags);
  };
  for (const auto& c : s.plugins.latency) check(PluginKind::latency, c);
  check(PluginKind::memory, s.plugins.memory);
  check(PluginKind::search, s.plugins.search);
  for (const auto& c : s.plugins.objectives) check(PluginKind::objective, c);
  // The efficiency block is read by each latency model found (an unknown one was reported at
  // its name above, not at the machine file).
  for (const auto& c : s.plugins.latency) {
    if (!registry.find(PluginKind::latency, c.name)) continue;
    try {
      registry.machine_params(c.name, s.machine_efficiency, s.machine_file);
    } catch (const InputErrors& e) {
      for (const auto& d : e.diagnostics()) diags.push_back(d);
    } catch (const InputError& e) {
      diags.push_back(Diagnostic{SourceLocation{s.machine_file, 0, 0}, e.what()});
    }
  }
}

void require_scenario_plugins(const Scenario& scenario, const PluginRegistry& registry) {
  std::vector<Diagnostic> diags;
  check_scenario_plugins(scenario, registry, MissingKind::error, diags);
  if (!diags.empty()) throw InputErrors(std::move(diags));
}

}  // namespace tessera
