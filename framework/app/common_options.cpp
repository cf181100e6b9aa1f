#include "common_options.hpp"

#include "studies/plugin_isolation.hpp"
#include "studies/worker_error.hpp"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string_view>

#include <algorithm>
#include <csignal>
#include <exception>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "core/cancellation.hpp"
#include "core/text/nearest_name.hpp"
#include "core/text/safe_text.hpp"
#include "exit_codes.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "signals.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

namespace tessera::cli {

LoadOptions CommonOptions::load_options() const {
  LoadOptions o;
  o.set = set;
  o.model_override = model;
  o.machine_override = machine;
  return o;
}

void add_common_options(po::options_description& desc, CommonOptions& out, unsigned flags) {
  auto add = desc.add_options();
  if (flags & kOptSet)
    add("set", po::value<std::vector<std::string>>(&out.set)->composing()->value_name("KEY=VALUE"),
        "override a scenario value by dotted path from the scenario's root, same value grammar "
        "as the YAML (repeatable): --set workload.batch=8 --set 'machine.pe.hbm.bandwidth=2 TB/s'");
  if (flags & kOptModelMachine) {
    add("model", po::value<std::string>(&out.model)->value_name("FILE"),
        "use this model instead of the scenario's: a model YAML file or a Hugging Face config.json");
    add("machine", po::value<std::string>(&out.machine)->value_name("FILE"),
        "use this machine file instead of the scenario's");
  }
  if (flags & kOptJson)
    add("json", po::value<std::string>(&out.json)->value_name("FILE|-"),
        "also write the results as JSON to FILE ('-' or /dev/stdout = stdout, replacing the table); "
        "checked before any work: the folder must exist, not the same file as another output");
  if (flags & kOptCsv)
    add("csv", po::value<std::string>(&out.csv)->value_name("FILE|-"),
        "also write the results as CSV to FILE ('-' = stdout); replaced atomically when the run succeeds, "
        "FIFOs, devices and symlink targets written through");
  if (flags & kOptPluginPath)
    add("plugin-path", po::value<std::vector<std::string>>(&out.plugin_paths)->composing()->value_name("DIR"),
        "also look for plugins in DIR (repeatable; searched before TESSERA_PLUGIN_PATH and the defaults)");
  if (flags & kOptPluginPath)
    add("plugin-override",
        po::value<std::vector<std::string>>(&out.plugin_overrides)->composing()->value_name("NAME"),
        "let a library on the plugin path replace the shipped plugin NAME (kind/name or name; repeatable); "
        "without it such a library is refused. A replaced plugin's error band is not printed");
  if (flags & kOptVerbosity) {
    add("verbose,v", "log more to stderr (repeat: -vv debug, -vvv trace)");
    add("quiet,q", po::bool_switch(&out.quiet),
        "log errors only and draw no progress; results are still printed");
  }
  if (flags & kOptLimits) {
    add("limit", po::value<std::vector<std::string>>(&out.limits)->composing()->value_name("NAME=N"),
        "raise (or lower) a documented resource limit (repeatable; docs/limits.md lists them): "
        "--limit yaml.nodes=5000000");
    add("max-configs", po::value<std::string>(&out.max_configs)->value_name("N"),
        "refuse a study that would start more than N evaluations, hardware points x valid "
        "configurations (not grid points) "
        "(default 1e7; the limit max_configs)");
  }
  if (flags & kOptHelp) add("help,h", po::bool_switch(&out.help), "show this help");
}

po::variables_map parse_command_line(const Args& args, const po::options_description& desc,
                                     const po::positional_options_description& positional,
                                     CommonOptions& out) {
  // Count -v, -vv, -vvv, --verbose ourselves (Boost refuses a repeated switch).
  Args rest;
  bool after_dashes = false;
  for (const auto& a : args) {
    if (!after_dashes && a == "--") after_dashes = true;
    if (!after_dashes && a == "--verbose") {
      ++out.verbose;
      continue;
    }
    if (!after_dashes && a.size() >= 2 && a[0] == '-' && a[1] == 'v' &&
        a.find_first_not_of('v', 1) == std::string::npos) {
      out.verbose += static_cast<int>(a.size() - 1);
      continue;
    }
    rest.push_back(a);
  }
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(rest).options(desc).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::unknown_option& e) {
    std::vector<std::string> names;
    for (const auto& o : desc.options()) names.push_back("--" + o->long_name());
    std::string opt = e.get_option_name();
    throw InputError("unknown option '" + opt + "'" + did_you_mean(opt, names) + "; see --help");
  } catch (const po::error& e) {
    throw InputError(std::string(e.what()) + "; see --help");
  }
  if (studies::is_unit_worker()) out.quiet = true;  // a worker's progress and notes are its parent's
  apply_logging(out);
  apply_limits(out);
  return vm;
}

bool parse_or_help(const Args& args, const po::options_description& shown,
                   const po::options_description& hidden, const char* positional, int max_positional,
                   CommonOptions& out, const std::string& usage, const std::string& examples) {
  po::options_description all;
  all.add(shown).add(hidden);
  po::positional_options_description pos;
  pos.add(positional, max_positional);
  parse_command_line(args, all, pos, out);
  if (!out.help) return true;
  print_help(std::cout, usage, shown, examples);
  return false;
}

void apply_limits(const CommonOptions& o) {
  Limits limits = current_limits();
  for (const auto& l : o.limits) apply_limit_setting(limits, l);
  if (!o.max_configs.empty()) apply_limit_setting(limits, "max_configs=" + o.max_configs);
  set_limits(limits);
}

namespace {

// The log on stderr, each line made printable (core/text/safe_text.hpp): a log line may name a plugin
// folder from TESSERA_PLUGIN_PATH or a plugin's own text.
class PrintableStderrSink final : public spdlog::sinks::base_sink<std::mutex> {
 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    spdlog::memory_buf_t formatted;
    formatter_->format(msg, formatted);
    const std::string_view line(formatted.data(), formatted.size());
    const bool newline = !line.empty() && line.back() == '\n';
    std::fputs(printable_text(newline ? line.substr(0, line.size() - 1) : line).c_str(), stderr);
    if (newline) std::fputc('\n', stderr);
  }
  void flush_() override { std::fflush(stderr); }
};

}  // namespace

void apply_logging(const CommonOptions& o) {
  if (!spdlog::get("tessera")) {
    auto logger = std::make_shared<spdlog::logger>("tessera", std::make_shared<PrintableStderrSink>());
    logger->set_pattern("tessera: %l: %v");
    spdlog::register_logger(logger);
    spdlog::set_default_logger(logger);
  }
  spdlog::level::level_enum level = spdlog::level::warn;
  if (o.verbose == 1) level = spdlog::level::info;
  if (o.verbose == 2) level = spdlog::level::debug;
  if (o.verbose >= 3) level = spdlog::level::trace;
  if (o.quiet) level = spdlog::level::err;
  spdlog::set_level(level);
}

namespace {

// After a cancellation (a signal, or Cancelled from the library): what was lost, exit 128+N.
int interrupted() {
  const int sig = received_signal();
  std::string line = "tessera: interrupted";
  if (sig == SIGINT) line += " by SIGINT";
  if (sig == SIGTERM) line += " by SIGTERM";
  if (sig == SIGHUP) line += " by SIGHUP";
  const std::string done = progress_summary();
  line += done.empty() ? " before any progress was reported" : " after " + done;
  line += partial_output_possible() ? "; output written through to stdout, a FIFO or a device may be partial"
                                    : "; no output written";
  // A unit worker's or an MPI rank's interruption is its parent's, or rank 0's, to say.
  if (!studies::is_unit_worker()) std::cerr << line << '\n';
  if (sig == SIGHUP) return kExitHangup;
  return sig == SIGTERM ? kExitTerminated : kExitInterrupted;
}

}  // namespace

// Every bad-input line is led by where the problem is: `FILE[:LINE:COL]: error: ...` when the
// message names a file first (or is already located), else `<command line>: error: ...` (a
// flag, an option value, a name given on the command line).
static std::string located_input_error(const std::string& message) {
  namespace fs = std::filesystem;
  const auto first_space = message.find(' ');
  const auto located = message.find(": error: ");
  if (located != std::string::npos && located < first_space) return message;
  const auto colon = message.find(": ");
  if (colon != std::string::npos && colon < first_space && colon > 0) {
    const std::string head = message.substr(0, colon);
    std::error_code ec;
    const bool path_like = head.find('/') != std::string::npos || fs::exists(head, ec);
    if (path_like && head[0] != '-') return head + ": error: " + message.substr(colon + 2);
  }
  return std::string(loader::kCommandLine) + ": error: " + message;
}

int run_guarded(const std::function<int()>& body) {
  std::exception_ptr failure;
  try {
    const int rc = body();
    // The results printed on stdout are the command's output too: a write that failed (a full
    // disk, /dev/full) loses them, which is a failure, never exit 0 (docs/limits.md "Outputs").
    errno = 0;
    std::cout.flush();
    if (!std::cout) {
      const int err = errno;
      std::cerr << "tessera: error: cannot write the results to stdout"
                << (err != 0 ? std::string(" (") + std::strerror(err) + ")" : std::string()) << '\n';
      return kExitFailed;
    }
    return rc;
  } catch (const Cancelled&) {
    return interrupted();
  } catch (const studies::StudyRanInWorker& ran) {
    // A worker ran the whole study (studies/plugin_isolation.hpp) and wrote its results.
    if (!ran.message().empty()) std::cerr << ran.message() << (ran.message().ends_with('\n') ? "" : "\n");
    return ran.status();
  } catch (...) {
    // An error caused by the interruption (a blocking open() returning EINTR, ...).
    if (received_signal() != 0) return interrupted();
    failure = std::current_exception();
  }
  // The message, printed; a worker process's sent to its parent instead, which says it when it
  // does not fail the same way itself (never printed twice).
  std::string text;
  int status = kExitFailed;
  try {
    std::rethrow_exception(failure);
  } catch (const InputErrors& e) {
    for (const auto& d : e.diagnostics()) text += d.format() + '\n';
    status = kExitBadInput;
  } catch (const InputError& e) {
    text = located_input_error(printable_message(e.what())) + '\n';
    status = kExitBadInput;
  } catch (const std::exception& e) {
    text = "tessera: error: " + printable_message(e.what()) + '\n';
  }
  if (studies::is_unit_worker() || studies::is_whole_worker())
    studies::report_worker_failure(status, text, studies::save_error(failure));
  else
    std::cerr << text;
  return status;
}

void print_help(std::ostream& os, const std::string& usage, const po::options_description& desc,
                const std::string& examples) {
  os << usage << '\n' << desc << examples;
}

}  // namespace tessera::cli
