// `tessera validate FILE...`: checks model, machine and scenario files (by their `kind:`),
// printing `FILE: ok` for each good file and every diagnostic of each bad one. For scenarios
// it also checks the plugin choices, the machine's blocks (`plugins:`, `efficiency:`) and the
// machine-block axes of sweep.hardware against the plugins' schemas when those plugins are found.
// Exit 2 when any file is bad.
#include <iostream>

#include "common_options.hpp"
#include "core/text/safe_text.hpp"
#include "exit_codes.hpp"
#include "studies/entries/validate_entry.hpp"
#include "tessera/error.hpp"

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

    studies::ValidateEntry entry(common.load_options(), common.plugin_paths, common.plugin_overrides);
    bool all_ok = true;
    for (const auto& f : files) {
      const studies::FileCheck checked = entry.check(f);
      const std::vector<Diagnostic>& diags = checked.errors;
      const std::vector<Diagnostic>& warnings = checked.warnings;
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
