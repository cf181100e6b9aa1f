#include "isolation_option.hpp"

#include "progress_bar.hpp"
#include "result_stream.hpp"

#include <filesystem>
#include <system_error>

#include "studies/scenario_options.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {

void add_isolation_options(po::options_description_easy_init add, IsolationFlags& flags) {
  add("isolate-plugins", po::bool_switch(&flags.on),
      "compute the work units in isolated worker processes: a plugin that crashes, calls exit() or "
      "hangs ends the study with a named error, never tessera (the default when a plugin comes from "
      "outside the shipped plugin folder)")(
      "no-isolate", po::bool_switch(&flags.off),
      "compute the work units in this process, even with added plugins");
}

studies::WorkerCommand worker_command(const IsolationFlags& flags, const std::string& command,
                                      const Args& args, unsigned threads, studies::WorkerShare share) {
  if (flags.on && flags.off)
    throw InputErrors({Diagnostic{SourceLocation{loader::kCommandLine, 0, 0},
                                  "--isolate-plugins and --no-isolate: give one of them, not both"}});
  studies::WorkerCommand w;
  w.isolation = flags.on    ? studies::Isolation::on
                : flags.off ? studies::Isolation::off
                            : studies::Isolation::automatic;
  // This very program: a `tessera` renamed or beside another build serves its own workers.
  std::error_code ec;
  w.executable = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  w.arguments.push_back(command);
  w.arguments.insert(w.arguments.end(), args.begin(), args.end());
  w.workers = threads;
  w.share = share;
  w.results_fd = result_fd();
  w.on_progress = note_progress;  // a whole study's, for the line an interruption prints
  return w;
}

}  // namespace tessera::cli
