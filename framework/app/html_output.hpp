#pragma once
// `--html FILE`, `--vega DIR` and `--png DIR` of every study and of `report`
// (docs/report.md): the outputs checked (the HTML's temporary file created, the scripts read,
// node and chromium found for --png) before any work, so a missing piece stops the command
// before the study with a clear error and never leaves half a file; the charts drawn from the
// study's --json result alone (report/html/html_report.hpp, report/charts/vega_specs.hpp).
#include <string>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output_files.hpp"
#include "report/html/web_assets.hpp"

namespace tessera::cli {

// The paths the options name ("" = not given).
struct ChartPaths {
  std::string html, vega, png;
  bool any() const { return !html.empty() || !vega.empty() || !png.empty(); }
};

struct HtmlOutput {
  OutputFile* file = nullptr;  // nullptr: no --html
  WebAssets assets;            // read when --html or --png
  std::string command;         // the command line for the page's header
  std::string vega_dir, png_dir;
  std::string node, chromium;  // --png: the programs that draw the PNGs
  std::string puppeteer_dir;   // --png: the node_modules folder holding puppeteer-core
  Outputs* outputs = nullptr;  // where the files of --vega DIR and --png DIR are added
  bool any() const { return file || !vega_dir.empty() || !png_dir.empty(); }
};

// Adds --html FILE, --vega DIR and --png DIR to `desc`; `what` names the charts ("the Pareto
// scatter and the stage breakdown").
void add_chart_options(boost::program_options::options_description& desc, ChartPaths& paths,
                       const std::string& what);

// "tessera NAME ARGS..." (arguments with spaces or quotes single-quoted, as a shell would).
std::string command_line(const std::string& name, const Args& args);

// Adds the outputs `paths` names to `outputs`, reads the scripts, finds node and chromium.
HtmlOutput add_html_output(Outputs& outputs, const ChartPaths& paths, const std::string& command);
// --html alone (FILE "" adds nothing).
HtmlOutput add_html_output(Outputs& outputs, const std::string& path, const std::string& command);

// Writes the page of `result` to html.file, each chart's spec to vega_dir/ID.vl.json and each
// chart as png_dir/ID.png (no-op for the outputs not asked for). The folders' files are added to
// the Outputs the HtmlOutput came from (Outputs::add_in_folder: a link at a name is replaced,
// never followed), so they are renamed into place with the others on commit_all().
void write_html(const HtmlOutput& html, const nlohmann::json& result);

}  // namespace tessera::cli
