// `tessera compare SCENARIO --latency overlap,roofline,calibrated`: the same scenario under
// several latency models side by side (docs/specification.md §5 "compare").
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "analysis/compare.hpp"
#include "common_options.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "name_list.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/compare_report.hpp"
#include "scenario/latency_choices.hpp"
#include "scope_option.hpp"
#include "studies/documents/provenance.hpp"
#include "studies/documents/scope_documents.hpp"
#include "study.hpp"
#include "study_options.hpp"
#include "terminal.hpp"
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
        });
    if (!parse_study_options(args, o, kCompareUsage, kCompareExamples)) return kExitOk;
    const TerminalText term = terminal_text(o.term);
    const unsigned threads = parse_threads(threads_text);
    const std::vector<std::string> names = split_names(latency_raw);
    const Study study = open_study(o.common, o.scenario_path, [&](Scenario& scenario) {
      // A model the scenario already configures keeps its parameters.
      scenario.plugins.latency = latency_choices(scenario, names, {"<command line>", 0, 0});
    });
    const Scenario& scenario = study.scenario();
    const std::vector<Scope> scopes = listed_scopes(o.scopes_raw, scenario);
    // The study's session is the first model's; one more per further model.
    std::vector<std::unique_ptr<Session>> sessions;
    std::vector<const Session*> ptrs{&study.session()};
    for (std::size_t i = 1; i < scenario.plugins.latency.size(); ++i) {
      sessions.push_back(std::make_unique<Session>(scenario, study.registry(), i));
      ptrs.push_back(sessions.back().get());
    }
    Outputs outputs;
    OutputFile* json = outputs.add("--json", o.common.json);
    const HtmlOutput html = add_html_output(outputs, o.charts, command_line("compare", args));
    StudyShape shape;
    shape.latency_models = scenario.plugins.latency.size();
    plan_study(std::cerr, scenario, study.registry(), "compare", shape, threads, o.common.quiet);
    ProgressBar bar(!o.common.quiet, term.width_given);
    CompareOptions co;
    co.threads = threads;
    co.on_progress = bar.callback();
    const CompareResult r = compare_models(ptrs, co);
    if (json || html.any()) {
      nlohmann::json j = compare_json(r, *ptrs[0]);
      // The other scopes: every model again, on the scenario with that scope.
      add_scope_documents(j, scenario.workload.scope, scopes, [&](Scope scope) {
        const Scenario scoped = with_scope(scenario, scope);
        std::vector<std::unique_ptr<Session>> owned;
        std::vector<const Session*> others;
        for (std::size_t i = 0; i < scoped.plugins.latency.size(); ++i) {
          owned.push_back(std::make_unique<Session>(scoped, study.registry(), i));
          others.push_back(owned.back().get());
        }
        CompareOptions quiet = co;
        quiet.on_progress = {};
        return compare_json(compare_models(others, quiet), *others[0]);
      });
      j["command"] = html.command;                          // the command that produced it
      j["provenance"] = provenance_json(study.registry());  // what produced it (docs/report.md)
      if (json) json->stream() << j.dump(2) << "\n";
      write_html(html, j);
    }
    outputs.commit_all();
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      print_compare_text(text, r, *ptrs[0], term.width);
      print_fitted(std::cout, text.str(), term);
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
