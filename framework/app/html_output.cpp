#include "html_output.hpp"

#include <cstdlib>

#include "report/html_report.hpp"

namespace tessera::cli {

std::string web_dir() {
  if (const char* env = std::getenv("TESSERA_WEB_DIR"); env && *env) return env;
  return TESSERA_WEB_DIR_DEFAULT;
}

std::string command_line(const std::string& name, const Args& args) {
  std::string s = "tessera " + name;
  for (const std::string& a : args) {
    const bool plain = !a.empty() && a.find_first_of(" \t\n'\"$`\\*?;&|<>()") == std::string::npos;
    if (plain) {
      s += " " + a;
      continue;
    }
    s += " '";
    for (char c : a) s += c == '\'' ? std::string("'\\''") : std::string(1, c);
    s += "'";
  }
  return s;
}

HtmlOutput add_html_output(Outputs& outputs, const std::string& path, const std::string& command) {
  HtmlOutput h;
  if (path.empty()) return h;
  h.assets = load_web_assets(web_dir());
  h.file = outputs.add("--html", path);
  h.command = command;
  return h;
}

void write_html(const HtmlOutput& html, const nlohmann::json& result) {
  if (html.file) html.file->stream() << html_report(result, html.command, html.assets);
}

}  // namespace tessera::cli
