// `tessera evaluate-batch SCENARIO --batch FILE | --configurations`: the worker's side of Python's
// isolated Scenario.evaluate() and configurations() (python/src/evaluate_binding.cpp). It
// evaluates the configurations saved in FILE (studies/entries/evaluated_batch.hpp), or lists the
// sweep's, and writes the bytes to its results descriptor, which the interpreter reads back.
// Only a worker process runs it (not listed; refused elsewhere).
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "core/progress.hpp"
#include "exit_codes.hpp"
#include "progress_bar.hpp"
#include "studies/entries/evaluate_entry.hpp"
#include "studies/entries/evaluated_batch.hpp"
#include "studies/plugin_isolation.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "tessera/error.hpp"
#include "work_report.hpp"

namespace tessera::cli {

namespace {

constexpr const char* kEvaluateBatchUsage =
    "Usage: tessera evaluate-batch SCENARIO (--batch FILE | --configurations) [options]\n\n"
    "The worker process of Python's isolated Scenario.evaluate() and configurations(): not a command\n"
    "to run by hand.\n";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("--batch " + path + ": cannot read it");
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

}  // namespace

int evaluate_batch_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    std::string batch_path, threads_text;
    bool list = false;
    declare_study_options(o, {.common_flags = kOptScenarioStudy}, [&](po::options_description_easy_init add) {
      add("batch", po::value<std::string>(&batch_path)->value_name("FILE"), "the configurations to evaluate")(
          "configurations", po::bool_switch(&list), "list the sweep's configurations")(
          "threads,j", po::value<std::string>(&threads_text)->value_name("N"), kThreadsHelp);
    });
    if (!parse_study_options(args, o, kEvaluateBatchUsage, "")) return kExitOk;
    if (!studies::is_whole_worker())
      throw InputError(
          "evaluate-batch: only a worker process of the Python module runs it (see tessera --help)");
    if (list == !batch_path.empty())
      throw InputError("evaluate-batch: give --batch FILE or --configurations");
    const unsigned threads = parse_threads(threads_text);
    const Study study = open_study(o.common, o.scenario_path, {}, StudyKind::step);
    const Session& session = study.session();
    if (list) {
      std::cout << studies::save_configs(studies::sweep_configurations(session));
      return kExitOk;
    }
    const std::vector<ParallelConfig> configs = studies::load_configs(read_file(batch_path));
    studies::EvaluatedBatch batch(configs.size(), studies::objective_columns(session));
    ProgressBar bar(!o.common.quiet);
    const ProgressCallback progress = bar.callback();
    studies::evaluate_batch(session, configs, threads, batch.columns(), [&](std::size_t done) {
      report_progress(progress, done, configs.size(), "configurations");
    });
    std::cout << batch.save();
    return kExitOk;
  });
}

}  // namespace tessera::cli
