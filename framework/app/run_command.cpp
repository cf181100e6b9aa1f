// `tessera run [SCENARIO]`: search the parallelism space of a scenario; counts, the best
// config, the Pareto frontier and the top N as tables; --json / --csv reports.
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "checkpoint_option.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "isolation_option.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/study_text/search_report.hpp"
#include "report/text/pareto_plot.hpp"
#include "scope_option.hpp"
#include "studies/entries/run_study.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "work_report.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kRunUsage =
    "Usage: tessera run [SCENARIO] [options]\n"
    "\n"
    "Searches the scenario's parallelism sweep with its search plugin, evaluates each config\n"
    "with its latency and memory plugins, and prints the counts (enumerated grid points, valid\n"
    "canonical configs, feasible = valid and fitting memory among the evaluated, evaluated), the\n"
    "best config by the first objective, the Pareto frontier over all objectives and the top N.\n"
    "With no SCENARIO, the default scenario (Llama-3.1-70B decode at 128K on the cube machine).\n";

constexpr const char* kRunExamples =
    "\nExamples:\n"
    "  tessera run\n"
    "  tessera run scenarios/llama3.1-70b-decode-128k.yaml --set workload.batch=8 --top 10\n"
    "  tessera run scenarios/llama3.1-70b-decode-128k.yaml --set plugins.search=two_stage --json - | jq "
    ".best\n"
    "  tessera run my.yaml --csv out/all.csv --json out/summary.json --threads 4\n"
    "  tessera run big.yaml --json out.json --checkpoint big.ckpt     # killed? then:\n"
    "  tessera run big.yaml --json out.json --resume big.ckpt\n"
    "\nOutputs (--json, --csv, the scenario's report.json/csv) are checked before the search: their\n"
    "folder must exist (it is not created), two outputs cannot name the same file, at most one goes\n"
    "to stdout. Regular files are replaced atomically; stdout, FIFOs and devices are written\n"
    "through; a symlink's target is written. Ctrl-C / SIGTERM stop the search, remove the partial\n"
    "files and exit 130 / 143.\n";

}  // namespace

int run_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    std::string threads_text, top_text;
    CheckpointOptions checkpoint;
    IsolationFlags isolation;
    declare_study_options(o, {.charts = "the Pareto scatter and the stage breakdown", .plot = true},
                          [&](po::options_description_easy_init add) {
                            add("threads,j", po::value<std::string>(&threads_text)->value_name("N"),
                                kThreadsHelp)("top", po::value<std::string>(&top_text)->value_name("N"),
                                              kTopHelp);
                            add_checkpoint_options(add, checkpoint);
                            add_isolation_options(add, isolation);
                          });
    if (!parse_study_options(args, o, kRunUsage, kRunExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    const unsigned threads = parse_threads(threads_text);
    // The sample is kept for the plot and for a checkpoint's state, and a checkpoint's plan is
    // the same with and without workers (resumable either way): a worker, whose stdout is no
    // terminal and which reads no checkpoint, is told both.
    studies::WorkerCommand command = worker_command(isolation, "run", args, threads);
    const bool keep_points = studies::shared_setting(command, "points", term.plot || checkpoint.any());
    const bool fixed_units = studies::shared_setting(command, "fixed_units", checkpoint.any());
    studies::StudyWorkers workers(std::move(command));
    const Study study = open_study(o.common, o.scenario_path, {}, StudyKind::step, &workers);
    studies::RunOptions ro;
    ro.scopes = listed_scopes(o.scopes_raw, study.scenario());
    const studies::RunStudy plan(study);  // the scenario's search plugin
    const bool separable = plan.separable();
    workers.prepared();  // a worker: its plugins are created and asked; its parent does the same now
    ro.top = parse_top(top_text, study.scenario().report.top);
    // Every output checked (and its temporary file created) before any work.
    Outputs outputs;
    const ReportOutputs report = add_report_outputs(outputs, o.common, study);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("run", args));
    // Sized last among the checks, so that its log line follows only a study that can start.
    plan_study(std::cerr, study.scenario(), study.registry(), "run", StudyShape{}, threads, o.common.quiet);
    // The checkpoint once every other check has passed (a refused study leaves no file). A
    // search that is not separable is one work unit, which a checkpoint cannot split.
    if (checkpoint.any() && !separable)
      throw InputErrors(
          {Diagnostic{SourceLocation{loader::kCommandLine, 0, 0},
                      "--checkpoint/--resume: the search plugin '" + study.scenario().plugins.search.name +
                          "' searches the space as one work unit (it is not separable), which a "
                          "checkpoint cannot split; exhaustive is separable"}});
    const std::unique_ptr<StudyCheckpoint> ck = open_checkpoint(
        checkpoint, "run", args, o.scenario_path, study, outputs, {o.charts.vega, o.charts.png});
    ProgressBar bar(!o.common.quiet, term.width_given);
    ro.threads = threads;
    ro.on_progress = bar.callback();
    ro.document = report.json || html.any();
    // With a checkpoint the sample is always kept: it is part of the state a resumed run reads,
    // whether that run draws the plot or not.
    ro.points = ro.document || keep_points;
    ro.executor = workers.executor();
    ro.fixed_units = fixed_units;
    ro.command = html.command;
    ro.checkpoint = ck.get();
    // Every row, in evaluation order (the space's order for exhaustive and random), as it comes.
    if (report.csv) {
      write_search_csv_header(report.csv->stream(), study.description(), study.description().objectives);
      ro.on_record = [&](const ConfigRecord& r) {
        write_search_csv_row(report.csv->stream(), study.description(), study.description().objectives, r);
      };
    }
    const studies::RunResult result = plan.compute(ro);
    print_resume_note(ck.get(), o.common.quiet);
    if (report.json) report.json->stream() << result.document.dump(2) << "\n";
    if (ro.document) write_html(html, result.document);
    outputs.commit_all();
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      print_search_text(text, study.description(), result.search, 40, term.width);
      if (term.plot) {
        const std::string plot =
            search_pareto_plot(study.description(), result.search, term.plot_width(), term.unicode);
        if (!plot.empty()) text << "\nPareto frontier, drawn (--no-plot leaves it out)\n" << plot;
      }
      print_fitted(std::cout, text.str(), term);
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
