#include "study.hpp"

#include "eval/plugin_check.hpp"
#include "scenario/scenario_loader.hpp"

namespace tessera::cli {
namespace {

Scenario load_edited(const std::string& path, const LoadOptions& options, const Study::Edit& edit) {
  Scenario s = load_scenario(path, options);
  if (edit) edit(s);
  return s;
}

// Every plugin problem of the scenario at once (as `validate` reports them), before a session
// creates any plugin.
const PluginRegistry& checked(const PluginRegistry& registry, const Scenario& scenario) {
  require_scenario_plugins(scenario, registry);
  return registry;
}

}  // namespace

Study::Study(const CommonOptions& common, const std::string& scenario_path, const Edit& edit)
    : path_(scenario_path.empty() ? default_scenario_path(common.load_options()) : scenario_path),
      scenario_(load_edited(path_, common.load_options(), edit)),
      registry_(common.plugin_paths),
      session_(scenario_, checked(registry_, scenario_)) {}

std::shared_ptr<SearchStrategy> Study::create_search() const {
  return registry_.create_search(scenario_.plugins.search);
}

}  // namespace tessera::cli
