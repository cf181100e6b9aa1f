#pragma once
// `--html FILE` of run, serve and report: the output checked (and its temporary file created)
// and the inlined JavaScript read before any work, so a missing bundle stops the command
// before the study with a clear error and never leaves half a file; the page written from the
// study's --json result (report/html_report.hpp).
#include <string>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "output_files.hpp"
#include "report/web_assets.hpp"

namespace tessera::cli {

struct HtmlOutput {
  OutputFile* file = nullptr;  // nullptr: no --html
  WebAssets assets;
  std::string command;  // the command line for the page's header
};

// The node_modules folder the scripts come from: $TESSERA_WEB_DIR, else the build's
// third_party/web/node_modules.
std::string web_dir();

// "tessera NAME ARGS..." (arguments with spaces or quotes single-quoted, as a shell would).
std::string command_line(const std::string& name, const Args& args);

// Adds `path` (--html; "" adds nothing) to `outputs` and reads the scripts.
HtmlOutput add_html_output(Outputs& outputs, const std::string& path, const std::string& command);

// Writes the page of `result` to html.file (no-op without --html).
void write_html(const HtmlOutput& html, const nlohmann::json& result);

}  // namespace tessera::cli
