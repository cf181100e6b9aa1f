#include "studies/entries/validate_entry.hpp"

#include <utility>

#include "eval/plugin_check.hpp"
#include "eval/study_check.hpp"
#include "scenario/sweeps/plugin_axes.hpp"
#include "scenario/sweeps/sweep_size.hpp"

namespace tessera::studies {

ValidateEntry::ValidateEntry(LoadOptions load, std::vector<std::string> plugin_paths,
                             std::vector<std::string> plugin_overrides)
    : load_(std::move(load)),
      plugin_paths_(std::move(plugin_paths)),
      plugin_overrides_(std::move(plugin_overrides)) {}

ValidateEntry::~ValidateEntry() = default;

FileCheck ValidateEntry::check(const std::string& f) {
  std::vector<Diagnostic> diags, warnings;
  try {
    validate_file(f, load_);
    // Scenarios: plugin names and parameters too.
    const bool is_json = f.size() >= 5 && f.compare(f.size() - 5, 5, ".json") == 0;
    if (!is_json) {
      Scenario s;
      bool is_scenario = false;
      try {
        s = load_scenario(f, load_);
        is_scenario = true;
      } catch (const InputError&) {
        // Not a scenario (validate_file accepted it by its kind).
      }
      if (!is_scenario) {
        try {
          warnings = default_collectives_warnings(load_machine_file(f), f);
        } catch (const InputError&) {
          // A model file.
        }
      }
      if (is_scenario) {
        warnings = default_collectives_warnings(s.machine, s.machine_file, f);
        // Loads only the plugins the scenario names (and, for a name not found, its kind).
        if (!registry_) registry_ = std::make_unique<PluginRegistry>(plugin_paths_, true, plugin_overrides_);
        check_scenario_plugins(s, *registry_, MissingKind::warn, diags);
        // Machine blocks: a misspelled plugin name is an error, one of a plugin not installed a warning.
        check_machine_blocks(s.machine_blocks, s.machine_file, *registry_, diags, warnings);
        // The sizing checks `run` applies before any work (docs/limits.md "Work"), and for
        // a scenario with a hardware sweep, `explore`'s over its hardware points.
        const bool serve = s.workload.mode == Mode::serve;
        if (diags.empty()) check_study(s, *registry_, serve ? "serve" : "run", StudyShape{}, diags);
        if (diags.empty() && !serve && !s.sweep.hardware.empty()) {
          StudyShape shape;
          shape.machines = sweep_hardware_points(s.sweep);
          check_study(s, *registry_, "explore", shape, diags);
        }
      }
    }
  } catch (const InputErrors& e) {
    diags = e.diagnostics();
  } catch (const InputError& e) {
    diags.push_back(Diagnostic{SourceLocation{f, 0, 0}, e.what()});
  }
  return FileCheck{std::move(diags), std::move(warnings)};
}

}  // namespace tessera::studies
