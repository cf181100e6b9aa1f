// `tessera explore SCENARIO`: joint hardware × parallelism exploration (docs/specification.md §5): for each
// point of the sweep.hardware grid the best parallelism (the scenario's search), the
// latency/cost Pareto frontier, and the hardware sensitivity ranking.
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "analysis/exploration.hpp"
#include "analysis/sensitivity.hpp"
#include "analysis/serve_exploration.hpp"
#include "commands.hpp"
#include "common_options.hpp"
#include "core/safe_text.hpp"
#include "eval/cost_objective.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/explore_report.hpp"
#include "report/serve_explore_report.hpp"
#include "scenario/sweep_size.hpp"
#include "scope_option.hpp"
#include "studies/documents/provenance.hpp"
#include "studies/documents/scope_documents.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "terminal.hpp"
#include "work_report.hpp"

namespace tessera::cli {

namespace {

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
    "  tessera explore scenarios/llama3.1-70b-hbm-vs-links-explore.yaml --json out/explore.json\n";

// A serve scenario: the serving study (aggregated, and disaggregated with
// serving.disaggregated) at every hardware point, the points ranked by the best tokens/s/PE.
int explore_serve(const CommonOptions& common, const Study& study, unsigned threads, const ChartPaths& charts,
                  const std::string& command, const std::vector<Scope>& scopes) {
  const Scenario& scenario = study.scenario();
  const Session& session = study.session();
  Outputs outputs;
  OutputFile* json = outputs.add("--json", common.json);
  const HtmlOutput html = add_html_output(outputs, charts, command);
  StudyShape shape;
  shape.machines = sweep_hardware_points(scenario.sweep);
  plan_study(std::cerr, scenario, study.registry(), "explore", shape, threads, common.quiet);
  ProgressBar bar(!common.quiet);
  ServeExploreOptions eo;
  eo.threads = threads;
  eo.on_progress = bar.callback();
  const ServeExploreResult result = explore_serving(session, eo);
  if (!outputs.stdout_taken()) {
    std::ostringstream text;
    print_serve_explore_text(text, session, result);
    std::cout << printable_lines(text.str());
  }
  if (json || html.any()) {
    nlohmann::json j = serve_explore_json(session, result);
    add_scope_documents(j, scenario.workload.scope, scopes, [&](Scope scope) {
      const Scenario scoped = with_scope(scenario, scope);
      const Session other(scoped, study.registry());
      ServeExploreOptions quiet = eo;
      quiet.on_progress = {};
      return serve_explore_json(other, explore_serving(other, quiet));
    });
    j["command"] = html.command;                          // the command that produced it
    j["provenance"] = provenance_json(study.registry());  // what produced it (docs/report.md)
    if (json) json->stream() << j.dump(2) << "\n";
    write_html(html, j);
  }
  outputs.commit_all();
  return kExitOk;
}

}  // namespace

int explore_command(const Args& args) {
  return run_guarded([&]() -> int {
    StudyCommandOptions o;
    std::string threads_text;
    bool no_sensitivity = false;
    declare_study_options(
        o,
        {.common_flags = kOptScenarioStudy,
         .charts = "the grid as heat maps, the latency/cost frontier, the hardware tornado"},
        [&](po::options_description_easy_init add) {
          add("threads,j", po::value<std::string>(&threads_text)->value_name("N"), kThreadsHelp)(
              "no-sensitivity", po::bool_switch(&no_sensitivity), "skip the hardware sensitivity ranking");
        });
    if (!parse_study_options(args, o, kExploreUsage, kExploreExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    const unsigned threads = parse_threads(threads_text);
    const Study study = open_study(o.common, o.scenario_path, {}, StudyKind::either);
    const Scenario& scenario = study.scenario();
    const std::vector<Scope> scopes = listed_scopes(o.scopes_raw, scenario);
    const Session& session = study.session();
    const PluginRegistry& registry = study.registry();
    if (scenario.workload.mode == Mode::serve)
      return explore_serve(o.common, study, threads, o.charts, command_line("explore", args), scopes);
    const auto strategy = study.create_search();
    // The cost objective: the scenario's when listed (its parameters), else the defaults.
    const std::shared_ptr<Objective> cost = create_cost_objective(scenario, registry);
    Outputs outputs;
    OutputFile* json = outputs.add("--json", o.common.json);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("explore", args));
    // Every hardware point, then (unless --no-sensitivity) the scenario's machine and two
    // perturbations of each hardware knob.
    StudyShape shape;
    shape.machines = sweep_hardware_points(scenario.sweep);
    if (!no_sensitivity)
      shape.machines = saturating_size_mul(2, hardware_knobs(session).size()) + 1 + shape.machines;
    plan_study(std::cerr, scenario, registry, "explore", shape, threads, o.common.quiet);
    ProgressBar bar(!o.common.quiet, term.width_given);
    ExploreOptions eo;
    eo.search.threads = threads;
    eo.search.top = 1;
    eo.sensitivity = !no_sensitivity;
    eo.on_progress = bar.callback();
    const ExploreResult result = explore_hardware(session, *strategy, *cost, eo);
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      print_explore_text(text, session, result, term.width);
      print_fitted(std::cout, text.str(), term);
    }
    if (json || html.any()) {
      nlohmann::json j = explore_json(session, result);
      add_scope_documents(j, scenario.workload.scope, scopes, [&](Scope scope) {
        const Scenario scoped = with_scope(scenario, scope);
        const Session other(scoped, registry);
        ExploreOptions quiet = eo;
        quiet.on_progress = {};
        return explore_json(other, explore_hardware(other, *study.create_search(),
                                                    *create_cost_objective(scoped, registry), quiet));
      });
      j["command"] = html.command;                          // the command that produced it
      j["provenance"] = provenance_json(study.registry());  // what produced it (docs/report.md)
      if (json) json->stream() << j.dump(2) << "\n";
      write_html(html, j);
    }
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
