// `tessera compare SCENARIO --latency overlap,roofline,calibrated`: the same scenario under
// several latency models side by side (docs/specification.md §5 "compare").
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "exit_codes.hpp"
#include "isolation_option.hpp"
#include "name_list.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/study_text/compare_report.hpp"
#include "scope_option.hpp"
#include "studies/entries/compare_entry.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "work_report.hpp"

namespace tessera::cli {

namespace {

const char* kCompareUsage = "tessera compare [SCENARIO] [--latency NAME[,NAME...]]... [options]";
const char* kCompareExamples =
    "  tessera compare scenarios/llama3.1-70b-decode-128k.yaml --latency overlap,roofline,calibrated\n"
    "  tessera compare --latency overlap --latency calibrated --json -\n\n"
    "Every valid canonical configuration of the scenario's sweep is evaluated under each latency\n"
    "model; the feasible ones are ranked by the scenario's first objective. Printed: each model's\n"
    "optimum and its rank under the others, the optima stage by stage (visible time per\n"
    "occurrence under every model), Kendall tau-b between every pair of rankings (ties allowed),\n"
    "and where the winner changes. Default models: the scenario's plugins.latency list.\n";

}  // namespace

int compare_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    std::vector<std::string> latency_raw;
    std::string threads_text;
    IsolationFlags isolation;
    declare_study_options(
        o,
        {.common_flags = kOptAll & ~kOptCsv,
         .scenario_listed = false,
         .own_first = true,
         .charts = "latencies side by side, rank vs rank, where the winner changes"},
        [&](po::options_description_easy_init add) {
          add("latency", po::value<std::vector<std::string>>(&latency_raw)->composing()->value_name("NAME"),
              "latency models: comma-separated or repeated (default: the scenario's plugins.latency)")(
              "threads", po::value<std::string>(&threads_text)->value_name("N"),
              "evaluation threads (default: all cores)");
          add_isolation_options(add, isolation);
        });
    if (!parse_study_options(args, o, kCompareUsage, kCompareExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    const unsigned threads = parse_threads(threads_text);
    const std::vector<std::string> names = split_names(latency_raw);
    // With an added plugin, the whole study in an isolated worker (studies/plugin_isolation.hpp).
    // Across MPI ranks, its evaluations' units on every rank (core/workers/mpi_job.hpp).
    studies::WorkerCommand worker =
        worker_command(isolation, "compare", args, threads, studies::WorkerShare::whole);
    worker.mpi_units = true;
    studies::StudyWorkers workers(std::move(worker));
    const Study study = open_study(
        o.common, o.scenario_path,
        [&](Scenario& scenario) { studies::choose_latency_models(scenario, names); }, StudyKind::step,
        &workers);
    workers.prepared();  // a probe's worker (Python): its plugins are created
    const Scenario& scenario = study.scenario();
    studies::CompareEntryOptions co;
    co.scopes = listed_scopes(o.scopes_raw, scenario);
    const studies::CompareEntry entry(study);  // the study's session is the first model's
    Outputs outputs;
    OutputFile* json = outputs.add("--json", o.common.json);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("compare", args));
    StudyShape shape;
    shape.latency_models = scenario.plugins.latency.size();
    plan_study(std::cerr, scenario, study.registry(), "compare", shape, threads, o.common.quiet);
    ProgressBar bar(!o.common.quiet, term.width_given);
    co.threads = threads;
    co.executor = workers.executor();
    co.on_progress = bar.callback();
    co.document = json || html.any();
    co.command = html.command;
    const studies::CompareStudyResult r = entry.compute(co);
    if (json) json->stream() << r.document.dump(2) << "\n";
    if (co.document) write_html(html, r.document);
    outputs.commit_all();
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      print_compare_text(text, r.result, study.description(), term.width);
      print_fitted(std::cout, text.str(), term);
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
