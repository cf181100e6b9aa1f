#pragma once
// One loaded scenario in Python: the scenario (loaded by the same loader as the CLI), the
// plugin registry it uses (shared by every scenario of the same plugin path) and the session
// on its first latency model (eval/session.hpp) — what the CLI's Study holds.
#include <memory>
#include <string>
#include <vector>

#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "scenario/scenario_loader.hpp"

namespace tessera::python {

// The registry of one plugin path (extra folders before the defaults), created once per path
// on first use and shared.
std::shared_ptr<PluginRegistry> registry_for(const std::vector<std::string>& plugin_path);

class ScenarioHandle {
 public:
  // The scenario is checked like the CLI checks it: every plugin problem reported together
  // (InputErrors) before any plugin is created.
  ScenarioHandle(Scenario scenario, const std::vector<std::string>& plugin_path);

  static std::unique_ptr<ScenarioHandle> load(const std::string& path, const LoadOptions& options,
                                              const std::vector<std::string>& plugin_path);
  // A scenario given as YAML/JSON text (Scenario.from_dict): diagnostics name `label`.
  static std::unique_ptr<ScenarioHandle> from_text(const std::string& text, const std::string& label,
                                                   const std::string& base_dir, const LoadOptions& options,
                                                   const std::vector<std::string>& plugin_path);

  const Scenario& scenario() const { return scenario_; }
  const Session& session() const { return *session_; }
  const PluginRegistry& registry() const { return *registry_; }
  const std::vector<std::string>& plugin_path() const { return plugin_path_; }
  // InputError at workload.mode unless the scenario is a step study (serve = false) or a
  // serving one (serve = true); `use` says what to call instead.
  void require_mode(bool serve, const std::string& use) const;

 private:
  std::vector<std::string> plugin_path_;
  std::shared_ptr<PluginRegistry> registry_;  // before the session: outlives its plugins
  Scenario scenario_;
  std::unique_ptr<Session> session_;
};

}  // namespace tessera::python
