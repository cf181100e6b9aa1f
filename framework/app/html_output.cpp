#include "html_output.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include "checkpoint_option.hpp"
#include "report/charts/vega_specs.hpp"
#include "report/html/html_report.hpp"
#include "tessera/error.hpp"
#include "web_dir.hpp"

extern char** environ;

namespace tessera::cli {
namespace {

namespace fs = std::filesystem;

// Draws every view of a report as ID.png (vega's own PNG renderer, 2x) in headless chromium
// through puppeteer-core, the browser test's driver (docs/report.md "--png").
// node SCRIPT NODE_MODULES CHROMIUM REPORT.html OUT_DIR
constexpr const char* kPngScript = R"js(
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [modules, chromium, html, out] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), "noop.js"));
const puppeteer = require("puppeteer-core");
const browser = await puppeteer.launch({ executablePath: chromium, headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
let failed = null;
try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => { failed = failed || e.message; });
  await page.goto(pathToFileURL(path.resolve(html)).href, { waitUntil: "load" });
  const images = await page.evaluate(async () => {
    await window.tesseraReady;
    const o = {};
    for (const [id, v] of Object.entries(window.tesseraViews)) o[id] = await v.toImageURL("png", 2);
    return o;
  });
  for (const [id, url] of Object.entries(images))
    fs.writeFileSync(path.join(out, id + ".png"), Buffer.from(url.slice(url.indexOf(",") + 1), "base64"));
} catch (e) { failed = failed || e.message; }
await browser.close();
if (failed) { console.error("tessera --png: " + failed); process.exit(1); }
)js";

// `name` on $PATH ("" when not found).
std::string find_program(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

// $CHROMIUM, else Debian's /usr/bin/chromium (or chromium-browser); "" when not executable.
std::string chromium_path() {
  if (const char* env = std::getenv("CHROMIUM"); env && *env) return access(env, X_OK) == 0 ? env : "";
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (access(p, X_OK) == 0) return p;
  return "";
}

// Creates (or accepts) the folder `dir` named by `option`.
void make_folder(const std::string& option, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir))
    throw Error(option + " " + dir + ": cannot create the folder" + (ec ? ": " + ec.message() : ""));
}

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw Error("cannot write " + path.string());
}

void write_pngs(const HtmlOutput& h, const std::string& page) {
  std::string tmpl = (fs::temp_directory_path() / "tessera-png-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw Error("--png: cannot create a temporary folder");
  const fs::path tmp = tmpl;
  struct Cleanup {
    fs::path dir;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
  } cleanup{tmp};
  write_file(tmp / "report.html", page);
  write_file(tmp / "png.mjs", kPngScript);
  const std::string modules = h.puppeteer_dir, script = (tmp / "png.mjs").string(),
                    html = (tmp / "report.html").string();
  // The PNGs are drawn into the private temporary folder, then added to the outputs one by one
  // (a link planted in png_dir is replaced, never written through).
  const fs::path drawn = tmp / "png";
  fs::create_directory(drawn);
  std::vector<std::string> args = {h.node, script, modules, h.chromium, html, drawn.string()};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, h.node.c_str(), nullptr, nullptr, argv.data(), environ) != 0)
    throw Error("--png: cannot start " + h.node);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw Error("--png " + h.png_dir + ": drawing the charts in " + h.chromium +
                " failed (its message is above)");
  std::vector<fs::path> pngs;
  for (const auto& e : fs::directory_iterator(drawn))
    if (e.is_regular_file() && e.path().extension() == ".png") pngs.push_back(e.path());
  std::sort(pngs.begin(), pngs.end());
  for (const fs::path& p : pngs) {
    std::ifstream in(p, std::ios::binary);
    h.outputs->add_in_folder("--png", (fs::path(h.png_dir) / p.filename()).string())->stream() << in.rdbuf();
  }
}

}  // namespace

void add_chart_options(boost::program_options::options_description& desc, ChartPaths& paths,
                       const std::string& what) {
  namespace po = boost::program_options;
  desc.add_options()("html", po::value<std::string>(&paths.html)->value_name("FILE"),
                     ("also write a self-contained HTML report: " + what + " (docs/report.md)").c_str())(
      "vega", po::value<std::string>(&paths.vega)->value_name("DIR"),
      "also write each chart's Vega-Lite spec as DIR/ID.vl.json (Altair, JupyterLab)")(
      "png", po::value<std::string>(&paths.png)->value_name("DIR"),
      "also write each chart as DIR/ID.png (headless chromium; scripts/install-deps.sh --test)");
}

std::string command_line(const std::string& name, const Args& args) {
  std::string s = "tessera " + name;
  // The checkpoint options are left out: a resumed study records the command it continues.
  for (const std::string& a : without_checkpoint_options(args)) {
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

HtmlOutput add_html_output(Outputs& outputs, const ChartPaths& paths, const std::string& command) {
  HtmlOutput h;
  h.command = command;
  h.outputs = &outputs;
  if (!paths.png.empty()) {
    h.node = find_program("node");
    h.chromium = chromium_path();
    // puppeteer-core is not installed with the chart libraries: the first place looked that has it.
    std::vector<std::string> looked;
    for (const std::string& d : web_dir_candidates()) {
      looked.push_back(d + "/puppeteer-core/package.json");
      if (h.puppeteer_dir.empty() && access(looked.back().c_str(), R_OK) == 0) h.puppeteer_dir = d;
    }
    // Missing tools are refused before any work, as bad input (exit 2): --png asks for what the
    // demo's packages do not include; the message names the command that installs them.
    const std::string install = " (run scripts/install-deps.sh --test, or make deps-test)";
    if (h.node.empty()) throw InputError("--png needs node (Debian's nodejs), not found on PATH" + install);
    if (h.chromium.empty())
      throw InputError(std::string("--png needs chromium: ") +
                       (std::getenv("CHROMIUM") && *std::getenv("CHROMIUM")
                            ? "$CHROMIUM (" + std::string(std::getenv("CHROMIUM")) + ") is not an executable"
                            : std::string("none at /usr/bin/chromium and $CHROMIUM unset")) +
                       " (run scripts/install-deps.sh --test, or set CHROMIUM=/path/to/chromium)");
    if (h.puppeteer_dir.empty()) {
      std::string places;
      for (const std::string& l : looked) places += (places.empty() ? "" : ", ") + l;
      throw InputError(
          "--png needs puppeteer-core (the browser test's driver, an npm dev dependency): none of " + places +
          " exists" + install);
    }
    make_folder("--png", paths.png);
    h.png_dir = paths.png;
  }
  if (!paths.html.empty() || !paths.png.empty()) h.assets = load_web_assets(web_dir());
  if (!paths.vega.empty()) {
    make_folder("--vega", paths.vega);
    h.vega_dir = paths.vega;
  }
  if (!paths.html.empty()) h.file = outputs.add("--html", paths.html);
  return h;
}

HtmlOutput add_html_output(Outputs& outputs, const std::string& path, const std::string& command) {
  ChartPaths paths;
  paths.html = path;
  return add_html_output(outputs, paths, command);
}

void write_html(const HtmlOutput& html, const nlohmann::json& result) {
  if (!html.any()) return;
  if (!html.vega_dir.empty())
    for (const ChartSpec& c : report_charts(result))
      html.outputs->add_in_folder("--vega", (fs::path(html.vega_dir) / (c.id + ".vl.json")).string())
              ->stream()
          << c.spec.dump(2) << "\n";
  if (!html.file && html.png_dir.empty()) return;
  const std::string page = html_report(result, html.command, html.assets);
  if (html.file) html.file->stream() << page;
  if (!html.png_dir.empty()) write_pngs(html, page);
}

}  // namespace tessera::cli
