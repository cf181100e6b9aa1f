// `tessera report RESULT.json --html FILE [--vega DIR] [--png DIR]`: redraws a saved `--json`
// result of run, serve, explain, sensitivity, explore, compare or validate-data as the charts
// those commands' --html / --vega / --png write (every chart reads only the --json schema,
// docs/report.md).
#include <optional>

#include "common_options.hpp"
#include "core/input_file.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "output_files.hpp"
#include "report/result_schema.hpp"
#include "scenario/json_tree.hpp"
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

// The result as every input file is read (regular files only, file.bytes; nesting, strings and
// values bounded by yaml.depth, scalar.bytes and yaml.nodes; duplicate keys refused) and checked
// against the result schema (report/result_schema.hpp) before any page is written.
nlohmann::json read_result(const std::string& path) {
  const std::string text = read_input_file(path, "the result file");
  {
    loader::Diags d;
    const std::optional<loader::JNode> tree = loader::parse_json_text(text, path, d, "");
    if (!tree) throw InputErrors(d.take());
    if (!tree->is_object() || !(tree->find("scenario") || tree->find("models")))
      throw InputError(path +
                       ": error: not the --json result of a tessera study (no \"scenario\", no \"models\")");
    check_result_fields(*tree, d);
    if (!d.empty()) throw InputErrors(d.take());
  }  // the located tree is freed before the document is read again for the charts
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {  // the reader above accepted it: not expected
    throw InputError(path + ": error: not JSON: " + e.what());
  }
}

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
    const nlohmann::json result = read_result(result_path);
    Outputs outputs;
    const HtmlOutput html = add_html_output(outputs, charts, command_line("report", args));
    write_html(html, result);
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
