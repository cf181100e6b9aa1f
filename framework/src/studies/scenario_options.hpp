#pragma once
// Where a study's scenario and plugins come from (docs/architecture.md "The study façade"): the
// options the CLI builds from its command line and Python from its keyword arguments, the
// loader's options they carry (--set, --model, --machine; LoadOptions), and the name
// command-line values have in diagnostics (loader::kCommandLine). A front end includes this
// instead of the scenario loader.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario_loader.hpp"

namespace tessera::studies {

// YAML or JSON text in place of a file (Python's Scenario.from_dict): diagnostics name `label`,
// relative paths are read from `base_dir`.
struct ScenarioText {
  std::string text;
  std::string label;
  std::string base_dir;
  // The text of the scenario file `label`, read once (Python's Scenario.load): loaded as that file,
  // its relative paths against base_dir (the file's folder then, absolute).
  bool from_file = false;
};

// Where the scenario and the plugins come from: built by the CLI from its parsed options, by
// Python from its keyword arguments.
struct ScenarioOptions {
  std::string path;                           // the scenario file; "" = the default scenario
  std::optional<ScenarioText> text;           // in place of `path` when given
  LoadOptions load;                           // --set, --model, --machine (and Python's HF config text)
  std::vector<std::string> plugin_paths;      // --plugin-path: searched before the defaults
  std::vector<std::string> plugin_overrides;  // --plugin-override: ids that may replace shipped ones
  // Python: one registry per plugin path, created on first use and shared by every scenario of
  // that path; a scenario plugin whose library failed the load probe is then a PluginError (the
  // library is broken) rather than an InputError (the name is right).
  bool shared_registry = false;
  // Called once the scenario and its plugins are checked and before any plugin is created, with
  // whether a plugin the scenario uses comes from outside the shipped plugin folder: where a
  // front end starts its isolated workers (studies/plugin_isolation.hpp).
  std::function<void(const Scenario& scenario, bool added_plugins)> before_session;
  // Python: with a plugin from outside the shipped folder, the session - the plugins' creation,
  // and before_session - on its first use (StudyContext::session()), so that a study its isolated
  // workers run whole never creates them in this process (where a thread one leaves could outlive
  // the interpreter's exit). Shipped plugins are created at once (their errors at load).
  bool lazy_session = false;
};

}  // namespace tessera::studies
