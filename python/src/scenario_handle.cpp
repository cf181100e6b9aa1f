#include "scenario_handle.hpp"

#include <map>

#include "eval/plugin_check.hpp"
#include "host/load_probe.hpp"
#include "tessera/error.hpp"

namespace tessera::python {

std::shared_ptr<PluginRegistry> registry_for(const std::vector<std::string>& plugin_path) {
  static std::map<std::vector<std::string>, std::shared_ptr<PluginRegistry>> registries;
  auto& r = registries[plugin_path];
  if (!r) r = std::make_shared<PluginRegistry>(plugin_path);
  return r;
}

ScenarioHandle::ScenarioHandle(Scenario scenario, const std::vector<std::string>& plugin_path)
    : plugin_path_(plugin_path), registry_(registry_for(plugin_path)), scenario_(std::move(scenario)) {
  try {
    require_scenario_plugins(scenario_, *registry_);
  } catch (const InputErrors& e) {
    // A plugin the scenario names whose library failed the load probe (host/load_probe.hpp):
    // a PluginError (the library is broken), not an InputError (the name is right).
    for (const auto& f : registry_->failures())
      if (f.message.find(kInitialiserFailure) != std::string::npos)
        for (const auto& d : e.diagnostics())
          if (d.message.find(f.path) != std::string::npos) throw PluginError(f.message);
    throw;
  }
  session_ = std::make_unique<Session>(scenario_, *registry_);
}

std::unique_ptr<ScenarioHandle> ScenarioHandle::load(const std::string& path, const LoadOptions& options,
                                                     const std::vector<std::string>& plugin_path) {
  return std::make_unique<ScenarioHandle>(load_scenario(path, options), plugin_path);
}

std::unique_ptr<ScenarioHandle> ScenarioHandle::from_text(const std::string& text, const std::string& label,
                                                          const std::string& base_dir,
                                                          const LoadOptions& options,
                                                          const std::vector<std::string>& plugin_path) {
  return std::make_unique<ScenarioHandle>(load_scenario_text(text, label, base_dir, options), plugin_path);
}

void ScenarioHandle::require_mode(bool serve, const std::string& use) const {
  if ((scenario_.workload.mode == Mode::serve) == serve) return;
  SourceLocation where = scenario_.mode_where;
  if (where.file.empty()) where = SourceLocation{scenario_.file, 0, 0};
  throw InputErrors({Diagnostic{
      where, std::string("workload.mode is ") + (serve ? "not serve" : "serve") + ": use " + use}});
}

}  // namespace tessera::python
