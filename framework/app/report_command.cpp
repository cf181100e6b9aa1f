// `tessera report RESULT.json --html FILE`: redraws a saved `tessera run --json` or `tessera
// serve --json` result as the HTML report --html writes (every chart reads only the --json
// schema, docs/report.md).
#include <fstream>
#include <iostream>
#include <sstream>

#include "common_options.hpp"
#include "exit_codes.hpp"
#include "html_output.hpp"
#include "output_files.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {
namespace {

constexpr const char* kUsage =
    "Usage: tessera report RESULT.json --html FILE\n"
    "\n"
    "Draws a result saved by `tessera run --json` or `tessera serve --json` as a self-contained HTML\n"
    "report, the same page `--html` writes (docs/report.md). The command line shown in its header is\n"
    "this one.\n";

constexpr const char* kExamples =
    "\nExamples:\n"
    "  tessera run --json out/run.json && tessera report out/run.json --html out/run.html\n"
    "  tessera serve scenarios/llama3.1-70b-serve-4k1k-h100.yaml --json s.json; tessera report s.json --html "
    "s.html\n";

nlohmann::json read_result(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": error: cannot open the result file");
  std::ostringstream os;
  os << in.rdbuf();
  try {
    nlohmann::json j = nlohmann::json::parse(os.str());
    if (!j.is_object() || !j.contains("scenario"))
      throw InputError(
          path + ": error: not a `tessera run --json` or `tessera serve --json` result (no \"scenario\")");
    return j;
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(path + ": error: not JSON: " + e.what());
  }
}

}  // namespace

int report_command(const Args& args) {
  return run_guarded([&]() -> int {
    CommonOptions common;
    std::string result_path, html_path;
    po::options_description desc("Options");
    desc.add_options()("html", po::value<std::string>(&html_path)->value_name("FILE"),
                       "the HTML report to write (required)");
    add_common_options(desc, common, kOptVerbosity | kOptHelp);
    po::options_description hidden;
    hidden.add_options()("result", po::value<std::string>(&result_path), "a --json result");
    if (!parse_or_help(args, desc, hidden, "result", 1, common, kUsage, kExamples)) return kExitOk;
    if (result_path.empty())
      throw InputError("tessera report needs a RESULT.json (see 'tessera report --help')");
    if (html_path.empty()) throw InputError("tessera report needs --html FILE (see 'tessera report --help')");
    const nlohmann::json result = read_result(result_path);
    Outputs outputs;
    const HtmlOutput html = add_html_output(outputs, html_path, command_line("report", args));
    write_html(html, result);
    outputs.commit_all();
    return kExitOk;
  });
}

}  // namespace tessera::cli
