// `tessera report RESULT.json --html FILE [--vega DIR] [--png DIR]`: redraws a saved `--json`
// result of run, serve, explain, sensitivity, explore, compare or validate-data as the charts
// those commands' --html / --vega / --png write (every chart reads only the --json schema,
// docs/report.md).
#include <optional>

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "output_files.hpp"
#include "report/schema_docs/result_schema.hpp"
#include "studies/entries/report_entry.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kReportUsage =
    "Usage: tessera report RESULT.json (--html FILE | --vega DIR | --png DIR)...\n"
    "\n"
    "Draws a result saved by the --json of run, serve, explain, sensitivity, explore, compare or\n"
    "validate-data as a self-contained HTML report, the same page `--html` writes (docs/report.md);\n"
    "--vega and --png write each chart's Vega-Lite spec and PNG. The command line shown in its\n"
    "header is this one.\n";

constexpr const char* kReportExamples =
    "\nExamples:\n"
    "  tessera run --json out/run.json && tessera report out/run.json --html out/run.html\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml --json s.json; tessera report s.json --html "
    "s.html\n";

}  // namespace

int report_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    std::string result_path;
    ChartPaths charts;
    po::options_description desc("Options");
    add_chart_options(desc, charts, "the charts of the saved study");
    add_common_options(desc, common, kOptVerbosity | kOptHelp | kOptLimits);
    po::options_description hidden;
    hidden.add_options()("result", po::value<std::string>(&result_path), "a --json result");
    if (!parse_or_help(args, desc, hidden, "result", 1, common, kReportUsage, kReportExamples))
      return kExitOk;
    if (result_path.empty())
      throw InputError("tessera report needs a RESULT.json (see 'tessera report --help')");
    if (!charts.any())
      throw InputError(
          "tessera report needs --html FILE, --vega DIR or --png DIR (see 'tessera report --help')");
    const nlohmann::json result = studies::read_result(result_path, check_result_fields);
    Outputs outputs;
    const HtmlOutput html = add_html_output(outputs, charts, command_line("report", args));
    write_html(html, result);
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
