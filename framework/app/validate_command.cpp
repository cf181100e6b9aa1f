// `tessera validate FILE...`: checks model, machine and scenario files (by their `kind:`),
// printing `FILE: ok` for each good file and every diagnostic of each bad one. For scenarios
// it also checks the plugin choices, the machine's blocks (`plugins:`, `efficiency:`) and the
// machine-block axes of sweep.hardware against the plugins' schemas when those plugins are found.
// Exit 2 when any file is bad.
#include <iostream>

#include "common_options.hpp"
#include "core/safe_text.hpp"
#include "eval/plugin_check.hpp"
#include "exit_codes.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/collectives_warnings.hpp"
#include "scenario/plugin_axes.hpp"
#include "scenario/sweep_size.hpp"
#include "tessera/error.hpp"
#include "work_report.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kValidateUsage =
    "Usage: tessera validate [options] FILE...\n"
    "\n"
    "Checks model, machine and scenario files (each by its `kind:`; a .json file is read as a\n"
    "Hugging Face config.json). Prints `FILE: ok` for each good file and every problem of each\n"
    "bad one as `FILE:LINE:COL: error: MESSAGE`. A scenario is checked as `tessera run` would\n"
    "load it: its model and machine, overrides and --set values, and its plugin choices and\n"
    "parameters against the plugins' schemas. Exit status 2 when any file is bad. A machine level\n"
    "without a `collectives:` block gets a warning (it runs on its fabric's defaults; exit 0).\n";

constexpr const char* kValidateExamples =
    "\nExamples:\n"
    "  tessera validate scenarios/*.yaml models/*.yaml machines/*.yaml\n"
    "  tessera validate scenarios/llama3.1-70b-decode-128k.yaml --set workload.batch=8\n"
    "  tessera validate tests/fixtures/hf/deepseek-v3/config.json\n";

}  // namespace

int validate_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    std::vector<std::string> files;
    po::options_description desc("Options");
    add_common_options(desc, common,
                       kOptSet | kOptModelMachine | kOptPluginPath | kOptVerbosity | kOptHelp | kOptLimits);
    po::options_description hidden;
    hidden.add_options()("file", po::value<std::vector<std::string>>(&files)->composing(), "files to check");
    if (!parse_or_help(args, desc, hidden, "file", -1, common, kValidateUsage, kValidateExamples))
      return kExitOk;
    if (files.empty()) throw InputError("validate: no files given (e.g. tessera validate scenarios/*.yaml)");

    const LoadOptions options = common.load_options();
    std::unique_ptr<PluginRegistry> registry;  // loaded on the first scenario
    bool all_ok = true;
    for (const auto& f : files) {
      std::vector<Diagnostic> diags, warnings;
      try {
        validate_file(f, options);
        // Scenarios: plugin names and parameters too.
        const bool is_json = f.size() >= 5 && f.compare(f.size() - 5, 5, ".json") == 0;
        if (!is_json) {
          Scenario s;
          bool is_scenario = false;
          try {
            s = load_scenario(f, options);
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
            if (!registry)
              registry = std::make_unique<PluginRegistry>(common.plugin_paths, true, common.plugin_overrides);
            check_scenario_plugins(s, *registry, MissingKind::warn, diags);
            // Machine blocks: a misspelled plugin name is an error, one of a plugin not installed a warning.
            check_machine_blocks(s.machine_blocks, s.machine_file, *registry, diags, warnings);
            // The sizing checks `run` applies before any work (docs/limits.md "Work"), and for
            // a scenario with a hardware sweep, `explore`'s over its hardware points.
            const bool serve = s.workload.mode == Mode::serve;
            if (diags.empty()) check_study(s, *registry, serve ? "serve" : "run", StudyShape{}, diags);
            if (diags.empty() && !serve && !s.sweep.hardware.empty()) {
              StudyShape shape;
              shape.machines = sweep_hardware_points(s.sweep);
              check_study(s, *registry, "explore", shape, diags);
            }
          }
        }
      } catch (const InputErrors& e) {
        diags = e.diagnostics();
      } catch (const InputError& e) {
        diags.push_back(Diagnostic{SourceLocation{f, 0, 0}, e.what()});
      }
      std::cout.flush();
      if (diags.empty()) {
        for (const auto& w : warnings) std::cerr << format_warning(w) << '\n';
        std::cout << printable_text(f) << ": ok\n";  // a newline in the name cannot forge a line
      } else {
        all_ok = false;
        for (const auto& d : diags) std::cerr << d.format() << '\n';
        for (const auto& w : warnings) std::cerr << format_warning(w) << '\n';  // after the errors
      }
    }
    std::cout.flush();
    return all_ok ? kExitOk : kExitBadInput;
  });
}

}  // namespace tessera::cli
