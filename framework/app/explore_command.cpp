// `tessera explore SCENARIO`: joint hardware × parallelism exploration (docs/specification.md §5): for each
// point of the sweep.hardware grid the best parallelism (the scenario's search), the
// latency/cost Pareto frontier, and the hardware sensitivity ranking.
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "checkpoint_option.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "isolation_option.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/study_text/explore_report.hpp"
#include "report/study_text/serve_explore_report.hpp"
#include "scope_option.hpp"
#include "studies/entries/explore_entry.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "terminal.hpp"
#include "work_report.hpp"

namespace tessera::cli {

namespace {

// Hardware grids up to this many points list every point (text, --json) unless --top says.
constexpr std::uint64_t kExploreListAll = 1000;

constexpr const char* kExploreUsage =
    "Usage: tessera explore [SCENARIO] [options]\n"
    "\n"
    "For every point of the scenario's sweep.hardware grid (the product of its axes), finds the\n"
    "best parallelism with the scenario's search plugin (plugins.search: exhaustive, two_stage, random;\n"
    "the table's `evaluated` column says how many configurations it scored per point), prices the\n"
    "machine with objective/cost (the scenario's, or one with default parameters), prints the\n"
    "Pareto frontier over latency and cost, and ranks the hardware knobs by latency elasticity at\n"
    "the scenario's own machine. On a serve scenario (workload.mode: serve): the serving study at\n"
    "every point (aggregated on each machine, and disaggregated with serving.disaggregated; axes\n"
    "may name serving.prefill_machine.<path> and serving.decode_machine.<path>), the points\n"
    "ranked by the best tokens/s/PE within the SLO, with the gain and the pools of each.\n";

constexpr const char* kExploreExamples =
    "\nExamples:\n"
    "  tessera explore scenarios/llama3.1-70b-hbm-vs-links-explore.yaml\n"
    "  tessera explore scenarios/llama3.1-70b-hbm-vs-links-explore.yaml --json out/explore.json\n"
    "  tessera explore scenarios/llama3.1-70b-hbm-vs-links-explore.yaml --top 5 --csv out/points.csv "
    "--checkpoint out/explore.ckpt\n"
    "  tessera explore scenarios/llama3.1-70b-serve-4k1k-cost-explore.yaml   # serve: ranked by cost per "
    "Mtok\n";

}  // namespace

int explore_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    std::string threads_text, top_text;
    bool no_sensitivity = false;
    CheckpointOptions checkpoint;
    IsolationFlags isolation;
    declare_study_options(
        o,
        {.common_flags = kOptScenarioStudy | kOptCsv,
         .charts = "the grid as heat maps, the latency/cost frontier, the hardware tornado"},
        [&](po::options_description_easy_init add) {
          add("threads,j", po::value<std::string>(&threads_text)->value_name("N"), kThreadsHelp)(
              "no-sensitivity", po::bool_switch(&no_sensitivity), "skip the hardware sensitivity ranking")(
              "top", po::value<std::string>(&top_text)->value_name("N"),
              "list the N fastest points and the latency/cost frontier, not every point (default: every "
              "point up to 1000, else the scenario's report.top); --csv lists every point");
          add_checkpoint_options(add, checkpoint);
          add_isolation_options(add, isolation);
        });
    if (!parse_study_options(args, o, kExploreUsage, kExploreExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    const unsigned threads = parse_threads(threads_text);
    // A step scenario's hardware points in isolated workers, a serve scenario whole in one
    // (studies/plugin_isolation.hpp).
    studies::StudyWorkers workers(
        worker_command(isolation, "explore", args, threads, studies::WorkerShare::units_for_step));
    const Study study = open_study(o.common, o.scenario_path, {}, StudyKind::either, &workers);
    const Scenario& scenario = study.scenario();
    const std::vector<Scope> scopes = listed_scopes(o.scopes_raw, scenario);
    const studies::ExploreEntry entry(study);  // a step scenario's search plugin and cost objective
    workers.prepared();  // a worker: its plugins are created; its parent creates them now
    Outputs outputs;
    OutputFile* json = outputs.add("--json", o.common.json);
    OutputFile* csv = outputs.add("--csv", o.common.csv);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("explore", args));
    if (entry.serving() && (csv || !top_text.empty() || checkpoint.any()))
      throw InputErrors(
          {Diagnostic{SourceLocation{loader::kCommandLine, 0, 0},
                      "--csv, --top, --checkpoint and --resume take a step scenario's exploration; "
                      "a serve scenario's (workload.mode: serve) lists every point in its text and --json"}});
    // Every point listed up to kExploreListAll points; beyond, the fastest and the frontier.
    const std::uint64_t points = entry.machines(false);  // the grid's points
    std::size_t keep = points <= kExploreListAll ? 0 : scenario.report.top;
    if (!top_text.empty()) keep = parse_top(top_text, scenario.report.top);
    // Every hardware point, then (a step scenario, unless --no-sensitivity) the scenario's
    // machine and two perturbations of each hardware knob.
    StudyShape shape;
    shape.machines = entry.machines(!no_sensitivity);
    plan_study(std::cerr, scenario, study.registry(), "explore", shape, threads, o.common.quiet);
    // A serve scenario: the serving study (aggregated, and disaggregated with
    // serving.disaggregated) at every hardware point, the points ranked by the best tokens/s/PE.
    // The checkpoint once every other check has passed (a refused study leaves no file).
    const std::unique_ptr<StudyCheckpoint> ck = open_checkpoint(
        checkpoint, "explore", args, o.scenario_path, study, outputs, {o.charts.vega, o.charts.png});
    ProgressBar bar(!o.common.quiet, entry.serving() ? 0 : term.width_given);
    studies::ExploreStudyOptions eo;
    // A worker computes hardware points only: the sensitivity ranking is its parent's.
    eo.sensitivity = !no_sensitivity && !studies::is_unit_worker();
    eo.executor = workers.executor();
    eo.threads = threads;
    eo.on_progress = bar.callback();
    eo.keep = keep;
    eo.checkpoint = ck.get();
    if (csv) {
      write_explore_csv_header(csv->stream(), study.description());
      eo.on_point = [&](const ExplorePoint& p) {
        write_explore_csv_row(csv->stream(), study.description(), p);
      };
    }
    const studies::ExploreStudyResult result = entry.compute(eo);
    print_resume_note(ck.get(), o.common.quiet);
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      if (result.serve) {
        print_serve_explore_text(text, study.description(), *result.serve);
        print_fitted(std::cout, text.str(), TerminalText{});  // as printed: no width
      } else {
        print_explore_text(text, study.description(), *result.step, term.width);
        print_fitted(std::cout, text.str(), term);
      }
    }
    if (json || html.any()) {
      const nlohmann::json j = entry.document(result, eo, {scopes, html.command});
      if (json) json->stream() << j.dump(2) << "\n";
      write_html(html, j);
    }
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
