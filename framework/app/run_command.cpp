// `tessera run [SCENARIO]`: search the parallelism space of a scenario; counts, the best
// config, the Pareto frontier and the top N as tables; --json / --csv reports.
#include <boost/program_options.hpp>
#include <iostream>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "common_options.hpp"
#include "eval/search_driver.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "output_files.hpp"
#include "progress_bar.hpp"
#include "report/pareto_plot.hpp"
#include "report/points_json.hpp"
#include "report/provenance.hpp"
#include "report/result_documents.hpp"
#include "report/scope_documents.hpp"
#include "report/search_report.hpp"
#include "report/stage_breakdown.hpp"
#include "scope_option.hpp"
#include "study.hpp"
#include "terminal.hpp"
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
    "\nOutputs (--json, --csv, the scenario's report.json/csv) are checked before the search: their\n"
    "folder must exist (it is not created), two outputs cannot name the same file, at most one goes\n"
    "to stdout. Regular files are replaced atomically; stdout, FIFOs and devices are written\n"
    "through; a symlink's target is written. Ctrl-C / SIGTERM stop the search, remove the partial\n"
    "files and exit 130 / 143.\n";

}  // namespace

int run_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    po::options_description desc("Options");
    add_common_options(desc, common, kOptAll);
    std::string scenario_path;
    std::string threads_text, top_text;
    ChartPaths charts;
    std::vector<std::string> scopes_raw;
    desc.add_options()("scenario", po::value<std::string>(&scenario_path), "scenario file")(
        "threads,j", po::value<std::string>(&threads_text)->value_name("N"),
        "evaluation threads (default: all hardware threads); the results are the same for every count")(
        "top", po::value<std::string>(&top_text)->value_name("N"),
        "rows of the top-N table (default: the scenario's report.top, 20)");
    add_scopes_option(desc, scopes_raw);
    add_chart_options(desc, charts, "the Pareto scatter and the stage breakdown");
    TerminalOptions term_opts;
    add_terminal_options(desc, term_opts, true);
    if (!parse_or_help(args, desc, po::options_description(), "scenario", 1, common, kRunUsage, kRunExamples))
      return kExitOk;
    const TerminalText term = terminal_text(term_opts);
    const unsigned threads = parse_threads(threads_text);
    const Study study = open_study(common, scenario_path);
    const Scenario& scenario = study.scenario();
    const std::vector<Scope> scopes = listed_scopes(scopes_raw, scenario);
    const Session& session = study.session();
    const auto strategy = study.create_search();
    const std::size_t top = parse_top(top_text, scenario.report.top);
    // Every output checked (and its temporary file created) before any work.
    Outputs outputs;
    const ReportOutputs report = add_report_outputs(outputs, common, study);
    OutputFile* csv = report.csv;
    OutputFile* json = report.json;
    const HtmlOutput html = add_html_output(outputs, charts, command_line("run", args));
    // Sized last among the checks, so that its log line follows only a study that can start.
    plan_study(std::cerr, scenario, study.registry(), "run", StudyShape{}, threads, common.quiet);
    ProgressBar bar(!common.quiet, term.width_given);
    SearchOptions so;
    so.threads = threads;
    so.on_progress = bar.callback();
    so.top = top;
    if (json || html.any() || term.plot) so.points = kMaxReportPoints;
    // Every row, in evaluation order (the space's order for exhaustive and random), as it comes.
    if (csv) {
      write_search_csv_header(csv->stream(), session, session.evaluator().objectives());
      so.on_record = [&](const ConfigRecord& r) {
        write_search_csv_row(csv->stream(), session, session.evaluator().objectives(), r);
      };
    }
    const SearchResult result = run_search(session, *strategy, so);
    if (json || html.any()) {
      nlohmann::json j = run_document(session, result);
      // The other scopes: the same search, quietly (no progress, no CSV rows).
      add_scope_documents(j, scenario.workload.scope, scopes, [&](Scope scope) {
        const Scenario scoped = with_scope(scenario, scope);
        const Session other(scoped, study.registry());
        SearchOptions quiet = so;
        quiet.on_record = {};
        quiet.on_progress = {};
        return run_document(other, run_search(other, *study.create_search(), quiet));
      });
      j["command"] = html.command;                          // the command that produced it
      j["provenance"] = provenance_json(study.registry());  // what produced it (docs/report.md)
      if (json) json->stream() << j.dump(2) << "\n";
      write_html(html, j);
    }
    outputs.commit_all();
    if (!outputs.stdout_taken()) {
      std::ostringstream text;
      print_search_text(text, session, result, 40, term.width);
      if (term.plot) {
        const std::string plot = search_pareto_plot(session, result, term.plot_width(), term.unicode);
        if (!plot.empty()) text << "\nPareto frontier, drawn (--no-plot leaves it out)\n" << plot;
      }
      print_fitted(std::cout, text.str(), term);
    }
    return kExitOk;
  });
}

}  // namespace tessera::cli
