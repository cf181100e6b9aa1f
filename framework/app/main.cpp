// The `tessera` executable: a thin dispatcher to the subcommands.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "core/text/safe_text.hpp"
#include "core/workers/mpi_job.hpp"
#include "exit_codes.hpp"
#include "result_stream.hpp"
#include "signals.hpp"
#include "studies/installation.hpp"
#include "studies/plugin_isolation.hpp"
#include "tessera/version.hpp"
#include "web_dir.hpp"

namespace {

struct Subcommand {
  const char* name;
  int (*fn)(const tessera::cli::Args&);
  const char* summary;
};

const Subcommand kSubcommands[] = {
    {"run", tessera::cli::run_command, "search the parallelism space; best config, Pareto frontier, top N"},
    {"serve", tessera::cli::serve_command,
     "serving: parallelism x batch x token budget under an SLO; best, Pareto frontier"},
    {"explain", tessera::cli::explain_command, "one configuration stage by stage: time, memory, totals"},
    {"compare", tessera::cli::compare_command, "the same scenario under several latency models"},
    {"sensitivity", tessera::cli::sensitivity_command,
     "one-knob sweeps: parallelism and hardware elasticities"},
    {"explore", tessera::cli::explore_command, "hardware grid x best parallelism; latency/cost frontier"},
    {"plugins", tessera::cli::plugins_command, "list loaded plugins and their parameter schemas"},
    {"validate", tessera::cli::validate_command, "check model, machine and scenario files"},
    {"validate-data", tessera::cli::validate_data_command,
     "predict published measurements and report the error"},
    {"calibrate", tessera::cli::calibrate_command,
     "fit a family block and framework profile to measurements; held-out error"},
    {"report", tessera::cli::report_command, "redraw a saved --json result (any study) as an HTML report"},
    {"schema", tessera::cli::schema_command, "the keys of model, machine and scenario files; --json-schema"},
};

void print_usage(std::ostream& os) {
  os << "tessera — analytical simulator of LLM inference on distributed accelerators\n\n"
        "Usage: tessera <command> [options] [SCENARIO]\n\nCommands:\n";
  for (const auto& s : kSubcommands) {
    os << "  " << s.name;
    for (std::size_t i = std::strlen(s.name); i < 15; ++i) os << ' ';
    os << s.summary << '\n';
  }
  os << "\nExamples:\n"
        "  tessera run                                   # the default scenario\n"
        "  tessera run scenarios/llama3.1-70b-decode-128k.yaml --set workload.batch=8\n"
        "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml   # TTFT/TPOT SLOs\n"
        "  tessera explain scenarios/llama3.1-70b-decode-128k.yaml --config \"cp=8,tp=4\"\n"
        "  tessera plugins --kind latency\n"
        "  tessera schema machine\n\n"
        "'tessera <command> --help' shows a command's options.\n";
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
#define TESSERA_LEAK_CHECK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TESSERA_LEAK_CHECK 1
#endif
#endif
#ifdef TESSERA_LEAK_CHECK
#include <sanitizer/lsan_interface.h>
#endif

namespace {

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    // `tessera` alone runs the default scenario, like `tessera run`.
    return tessera::cli::run_command({});
  }
  const std::string cmd = argv[1];
  if (cmd == "-h" || cmd == "--help" || cmd == "help") {
    print_usage(std::cout);
    return tessera::cli::kExitOk;
  }
  if (cmd == "--version") {
    // The version, then where this program finds its plugins and the report's chart libraries.
    std::string plugin_path;
    for (const std::string& d : tessera::studies::default_plugin_search_path())
      plugin_path += (plugin_path.empty() ? "" : ":") + d;
    std::cout << "tessera " << tessera::kVersion << "\nplugin path: " << plugin_path
              << "\nchart libraries: " << tessera::cli::web_dir_description() << "\nMPI: "
              << (tessera::workers::mpi_built() ? "built in (" + tessera::workers::mpi_library() + ")"
                                                : std::string("not built in (TESSERA_MPI)"))
              << "\n";
    return tessera::cli::kExitOk;
  }
  tessera::cli::Args args(argv + 2, argv + argc);
  if (cmd == "evaluate-batch") return tessera::cli::evaluate_batch_command(args);  // a worker's, not listed
  for (const auto& s : kSubcommands)
    if (cmd == s.name) return s.fn(args);
  std::cerr << "tessera: unknown command '" << tessera::printable_text(tessera::excerpt(cmd)) << "'\n\n";
  print_usage(std::cerr);
  return tessera::cli::kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  tessera::cli::separate_result_stream();  // before any output: plugins' stdout apart from results
  tessera::cli::install_signal_handlers();
  // A worker process of an isolated study (studies/plugin_isolation.hpp): told by its parent.
  const bool worker = tessera::studies::become_unit_worker();
  // One rank of an MPI job (core/workers/mpi_job.hpp): the ranks but rank 0 print nothing.
  try {
    if (!worker && tessera::workers::join_mpi_job() > 1 && tessera::workers::mpi_rank() > 0)
      tessera::cli::discard_results();
  } catch (const std::exception& e) {
    std::cerr << "tessera: error: " << tessera::printable_text(e.what()) << '\n';
    std::_Exit(tessera::cli::kExitBadInput);
  }
  tessera::studies::probe_added_plugin_loads();
  int status = dispatch(argc, argv);
  tessera::cli::finish_result_stream();
  tessera::studies::worker_finished(status);  // a worker running a whole study: its results are written
  status = tessera::workers::leave_mpi_job(status);  // every rank exits as rank 0 does
  // The results are written and committed. The process ends here, without static destructors:
  // a thread a plugin left running may still be using what they would free (a crash after the
  // results, exit status lost). A sanitizer build runs its leak check first, as exit() would.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
#ifdef TESSERA_LEAK_CHECK
  __lsan_do_leak_check();
#endif
  std::_Exit(status);
}
