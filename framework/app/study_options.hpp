#pragma once
// The option table of every command that studies a scenario (run, serve, explain, compare,
// sensitivity, explore), declared once: the shared options (common_options.hpp), SCENARIO, the
// command's own options, --scopes, the charts (--html, --vega, --png) and the terminal's
// (--width, --no-plot), in the order --help lists them. A command adds only its own options.
#include <boost/program_options.hpp>
#include <functional>
#include <string>
#include <vector>

#include "common_options.hpp"
#include "html_output.hpp"
#include "terminal.hpp"

namespace tessera::cli {

// --threads/-j's help, the same for every study that offers it.
inline constexpr const char* kThreadsHelp =
    "evaluation threads (default: all hardware threads); the results are the same for every count";
// --top's help (run, serve).
inline constexpr const char* kTopHelp = "rows of the top-N table (default: the scenario's report.top, 20)";

// The shared options of a study without --csv output of its own rows (explore, sensitivity).
inline constexpr unsigned kOptScenarioStudy =
    kOptSet | kOptPluginPath | kOptVerbosity | kOptJson | kOptModelMachine | kOptHelp | kOptLimits;

struct StudyOptionSpec {
  unsigned common_flags = kOptAll;  // which shared options (CommonFlags)
  const char* scenario_help = "scenario file";
  bool scenario_listed = true;  // --scenario listed by --help, else hidden (positional only)
  bool own_first = false;       // the command's options before the shared ones
  const char* charts = "";      // what --html draws ("the Pareto scatter and ...")
  bool plot = false;            // --no-plot (run, serve: the drawn frontier)
};

struct StudyCommandOptions {
  CommonOptions common;
  std::string scenario_path;
  std::vector<std::string> scopes_raw;
  ChartPaths charts;
  TerminalOptions term;
  po::options_description desc{"Options"};
  po::options_description hidden;
};

using OwnOptions = std::function<void(po::options_description_easy_init add)>;

// Declares the table of `spec` into o.desc / o.hidden, `own` the command's own options.
void declare_study_options(StudyCommandOptions& o, const StudyOptionSpec& spec, const OwnOptions& own = {});

// parse_or_help over the table (SCENARIO the one positional argument): false after --help.
bool parse_study_options(const Args& args, StudyCommandOptions& o, const std::string& usage,
                         const std::string& examples);

}  // namespace tessera::cli
