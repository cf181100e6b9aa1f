#pragma once
// The options every scenario command shares (--set, --plugin-path, -v/-q, --json, --csv,
// --model, --machine, -h) and the error-to-exit-status barrier. Outputs: output_files.hpp.
#include <boost/program_options.hpp>
#include <functional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "studies/scenario_options.hpp"

namespace tessera::cli {

namespace po = boost::program_options;

// Which shared options a command offers.
enum CommonFlags : unsigned {
  kOptSet = 1u << 0,           // --set KEY=VALUE (repeatable)
  kOptPluginPath = 1u << 1,    // --plugin-path DIR (repeatable)
  kOptVerbosity = 1u << 2,     // -v/--verbose (repeatable), -q/--quiet
  kOptJson = 1u << 3,          // --json FILE|-
  kOptCsv = 1u << 4,           // --csv FILE
  kOptModelMachine = 1u << 5,  // --model FILE, --machine FILE
  kOptHelp = 1u << 6,          // -h/--help
  kOptLimits = 1u << 7,        // --limit NAME=N (repeatable), --max-configs N
  kOptAll = 0xFFu,
};

struct CommonOptions {
  std::vector<std::string> set;
  std::vector<std::string> plugin_paths;
  std::vector<std::string> plugin_overrides;  // --plugin-override: ids allowed to replace shipped plugins
  int verbose = 0;                            // -v count
  bool quiet = false;
  std::string json;  // "" = none, "-" = stdout
  std::string csv;   // "" = none, "-" = stdout
  std::string model;
  std::string machine;
  bool help = false;
  std::vector<std::string> limits;  // --limit NAME=N
  std::string max_configs;          // --max-configs N ("" = the default)

  // LoadOptions for the scenario loader (data roots: TESSERA_DATA_DIR in front of the shipped
  // data, scenario/data_roots.hpp).
  LoadOptions load_options() const;
};

// Adds the selected shared options to `desc`, bound to `out`.
void add_common_options(po::options_description& desc, CommonOptions& out, unsigned flags = kOptAll);

// Parses `args` against `desc` (+ positionals). -v/-vv/--verbose are counted into
// `out.verbose` first (Boost cannot count a flag). Unknown or malformed options throw
// InputError with a "did you mean". Then applies the log level (see apply_logging).
po::variables_map parse_command_line(const Args& args, const po::options_description& desc,
                                     const po::positional_options_description& positional,
                                     CommonOptions& out);

// The front of every command: parse_command_line over `shown` (listed by --help) and `hidden`
// (not listed), the positional arguments bound to the option named `positional` (at most
// `max_positional`; -1 = any number). On -h/--help prints the help (print_help) to stdout and
// returns false: the command then exits 0.
bool parse_or_help(const Args& args, const po::options_description& shown,
                   const po::options_description& hidden, const char* positional, int max_positional,
                   CommonOptions& out, const std::string& usage, const std::string& examples);

// Applies --limit and --max-configs to tessera::current_limits() (docs/limits.md). Called by
// parse_command_line after parsing; exposed for commands that parse by hand.
void apply_limits(const CommonOptions& o);

// spdlog logs to stderr: warnings by default, -v info, -vv debug, -vvv trace, -q errors only.
void apply_logging(const CommonOptions& o);

// Runs a command body: InputErrors/InputError -> diagnostics on stderr, exit 2;
// PluginError/Error/std::exception -> "tessera: error: ..." on stderr, exit 1; Cancelled (or
// any failure after SIGINT/SIGTERM) -> "tessera: interrupted ..." saying what was lost, exit
// 130 (SIGINT) / 143 (SIGTERM).
int run_guarded(const std::function<int()>& body);

// "Usage: ..." + options + examples, as every --help prints it.
void print_help(std::ostream& os, const std::string& usage, const po::options_description& desc,
                const std::string& examples);

}  // namespace tessera::cli
