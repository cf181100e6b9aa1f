// `tessera sensitivity SCENARIO --parallelism | --hardware`: one-knob sweeps from the best
// config (docs/specification.md §5).
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "isolation_option.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/study_text/sensitivity_report.hpp"
#include "report/study_text/serve_sensitivity_report.hpp"
#include "scope_option.hpp"
#include "studies/entries/sensitivity_entry.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "terminal.hpp"
#include "work_report.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kSensitivityUsage =
    "Usage: tessera sensitivity [SCENARIO] (--parallelism | --hardware | both) [options]\n"
    "\n"
    "Finds the best config with the scenario's search, then\n"
    "  --parallelism  varies one of cp, tp, pp, dp, ep at a time over the seed's value lists,\n"
    "                 the others fixed: latency, feasibility and the reason when not feasible;\n"
    "  --hardware     for each hardware knob (HBM bandwidth and capacity, peak FLOP/s of the GEMM\n"
    "                 format, each level's link bandwidth and latency, stage overhead) the\n"
    "                 elasticity d ln(latency)/d ln(knob) by central difference (±10 %), with the\n"
    "                 parallelism fixed and re-optimised, ranked by |elasticity|.\n"
    "\n"
    "On a serve scenario (workload.mode: serve) the serving study's best point within the SLO:\n"
    "  --parallelism  each knob's best tokens/s/PE within the SLO over the serving points, or why\n"
    "                 no point is feasible;\n"
    "  --hardware     the elasticity of the best tokens/s/PE within the SLO (and of the ranking\n"
    "                 objective's best value, e.g. cost_per_mtok; and of the disaggregated pair's)\n"
    "                 to each hardware knob, the TTFT and TPOT SLOs and the speculative acceptance,\n"
    "                 the best point fixed and re-optimised (a new serving study). serving.requests\n"
    "                 is not simulated: the steady-state study's figures.\n";

constexpr const char* kSensitivityExamples =
    "\nExamples:\n"
    "  tessera sensitivity scenarios/llama3.1-70b-decode-128k.yaml --parallelism\n"
    "  tessera sensitivity scenarios/llama3.1-70b-decode-128k.yaml --hardware --json out/hw.json\n"
    "  tessera sensitivity scenarios/llama3.1-70b-serve-4k1k-h100.yaml --hardware\n";

}  // namespace

int sensitivity_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    bool par = false, hw = false;
    std::string threads_text;
    IsolationFlags isolation;
    declare_study_options(
        o,
        {.common_flags = kOptScenarioStudy, .charts = "one chart per parallelism knob, the hardware tornado"},
        [&](po::options_description_easy_init add) {
          add("parallelism", po::bool_switch(&par), "one-knob parallelism sweeps")(
              "hardware", po::bool_switch(&hw), "hardware elasticities")(
              "threads,j", po::value<std::string>(&threads_text)->value_name("N"),
              "evaluation threads (default: all hardware threads)");
          add_isolation_options(add, isolation);
        });
    if (!parse_study_options(args, o, kSensitivityUsage, kSensitivityExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    if (!par && !hw) par = hw = true;
    const unsigned threads = parse_threads(threads_text);
    // With an added plugin, the whole study in an isolated worker (studies/plugin_isolation.hpp).
    // Across MPI ranks, its searches' units on every rank (core/workers/mpi_job.hpp).
    studies::WorkerCommand worker =
        worker_command(isolation, "sensitivity", args, threads, studies::WorkerShare::whole);
    worker.mpi_units = true;
    studies::StudyWorkers workers(std::move(worker));
    const Study study = open_study(o.common, o.scenario_path, {}, StudyKind::either, &workers);
    const std::vector<Scope> scopes = listed_scopes(o.scopes_raw, study.scenario());
    const studies::SensitivityEntry entry(study);  // the scenario's search plugin
    Outputs outputs;
    OutputFile* json = outputs.add("--json", o.common.json);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("sensitivity", args));
    // The scenario's machine, then (--hardware) two perturbations of each hardware knob.
    StudyShape shape;
    if (hw) shape.machines = 1 + 2 * entry.hardware_knob_count();
    plan_study(std::cerr, study.scenario(), study.registry(), "sensitivity", shape, threads, o.common.quiet);
    ProgressBar bar(!o.common.quiet, term.width_given);
    const studies::SensitivityOptions so{par, hw, threads, bar.callback(), workers.executor()};
    const studies::SensitivityResult result = entry.compute(so);
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      if (result.serve)
        print_serve_sensitivity_text(text, study.description(), *result.serve, term.width);
      else
        print_sensitivity_text(text, study.description(), *result.step, term.width);
      print_fitted(std::cout, text.str(), term);
    }
    if (json || html.any()) {
      const nlohmann::json j = entry.document(result, so, {scopes, html.command});
      if (json) json->stream() << j.dump(2) << "\n";
      write_html(html, j);
    }
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
