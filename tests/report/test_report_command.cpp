// `tessera run --html`, `tessera serve --html` and `tessera report` end to end: a missing
// script bundle stops the study before any output exists; `report` redraws a saved result as
// the page --html wrote (apart from the command line in the header); bad input exits 2.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "output_test_util.hpp"
#include "tessera_build_paths.hpp"

#include <sys/wait.h>

using tessera::test::TempDir;

namespace {

int tessera_cli(const std::string& args, const std::string& env = "") {
  const std::string exe = std::string(TESSERA_BINARY_DIR) + "/bin/tessera";
  const std::string cmd = "TESSERA_PLUGIN_PATH= " + env + " " + exe + " " + args + " -q >/dev/null 2>&1";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// The page without the header line `name` ("command", "redrawn by") and its newline.
std::string without_row(const std::string& html, const std::string& name) {
  const std::size_t a = html.find("<tr><th>" + name + "</th>");
  const std::size_t b = html.find("</tr>\n", a);
  return a == std::string::npos ? html : html.substr(0, a) + html.substr(b + 6);
}

// The header line `name`'s value ("" when absent).
std::string row_value(const std::string& html, const std::string& name) {
  const std::string open = "<tr><th>" + name + "</th><td><code>";
  const std::size_t a = html.find(open);
  if (a == std::string::npos) return "";
  const std::size_t b = html.find("</code>", a);
  return html.substr(a + open.size(), b - a - open.size());
}

std::string json_command(const std::string& path) {
  const nlohmann::json j = nlohmann::json::parse(read(path));
  return j.value("command", "");
}

bool has_web_assets() {
  return std::filesystem::exists(std::string(TESSERA_SOURCE_DIR) +
                                 "/third_party/web/node_modules/vega/build/vega.min.js");
}

}  // namespace

TEST_CASE("run --html without the script bundles fails before the study and writes nothing") {
  TempDir dir;
  CHECK(tessera_cli("run --html " + (dir / "r.html") + " --json " + (dir / "r.json"),
                    "TESSERA_WEB_DIR=" + (dir / "none")) == 1);
  CHECK(dir.names().empty());
}

TEST_CASE("report without --html or with a file that is not a result exits 2") {
  TempDir dir;
  std::ofstream(dir / "bad.json") << "{not json";
  std::ofstream(dir / "other.json") << R"({"a": 1})";
  CHECK(tessera_cli("report " + (dir / "bad.json")) == 2);
  CHECK(tessera_cli("report " + (dir / "bad.json") + " --html " + (dir / "x.html")) == 2);
  CHECK(tessera_cli("report " + (dir / "other.json") + " --html " + (dir / "x.html")) == 2);
  CHECK(tessera_cli("report " + (dir / "missing.json") + " --html " + (dir / "x.html")) == 2);
  CHECK(!std::filesystem::exists(dir / "x.html"));
}

TEST_CASE("report redraws a saved run and serve result as the page --html wrote") {
  if (!has_web_assets()) {
    WARN("third_party/web/node_modules absent (scripts/install-deps.sh): skipped");
    return;
  }
  TempDir dir;
  const std::string serve = std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-serve-4k1k-h100.yaml";
  REQUIRE(tessera_cli("run --json " + (dir / "r.json") + " --html " + (dir / "r.html")) == 0);
  REQUIRE(tessera_cli("report " + (dir / "r.json") + " --html " + (dir / "r2.html")) == 0);
  REQUIRE(tessera_cli("serve " + serve + " --json " + (dir / "s.json") + " --html " + (dir / "s.html")) == 0);
  REQUIRE(tessera_cli("report " + (dir / "s.json") + " --html " + (dir / "s2.html")) == 0);
  const std::string run_page = read(dir / "r.html");
  CHECK(run_page.find("id=\"view-pareto\"") != std::string::npos);
  CHECK(run_page.find("id=\"view-stages\"") != std::string::npos);
  // The producing command kept (the --json's `command`), the redrawing one added.
  const std::string run_command =
      "tessera run --json " + (dir / "r.json") + " --html " + (dir / "r.html") + " -q";
  CHECK(json_command(dir / "r.json") == run_command);
  CHECK(row_value(run_page, "command") == run_command);
  CHECK(row_value(run_page, "redrawn by").empty());
  const std::string redrawn = read(dir / "r2.html");
  CHECK(row_value(redrawn, "command") == run_command);
  CHECK(row_value(redrawn, "redrawn by") ==
        "tessera report " + (dir / "r.json") + " --html " + (dir / "r2.html") + " -q");
  CHECK(without_row(redrawn, "redrawn by") == run_page);
  CHECK(json_command(dir / "s.json") ==
        "tessera serve " + serve + " --json " + (dir / "s.json") + " --html " + (dir / "s.html") + " -q");
  CHECK(without_row(read(dir / "s2.html"), "redrawn by") == read(dir / "s.html"));
  // The same study twice: the same bytes.
  REQUIRE(tessera_cli("run --json " + (dir / "r.json") + " --html " + (dir / "r.html")) == 0);
  CHECK(read(dir / "r.html") == run_page);
}

TEST_CASE("report draws the --json of every study: each passes the result schema") {
  TempDir dir;
  const std::string src = TESSERA_SOURCE_DIR;
  const std::vector<std::pair<std::string, std::string>> studies = {
      {"run", "run --set 'report.scopes=[full, attention]'"},
      {"serve", "serve " + src + "/scenarios/llama3.1-70b-serve-4k1k-h100-disagg.yaml"},
      {"explain", "explain --config cp=8,tp=16 --scopes full,attention"},
      {"sensitivity", "sensitivity"},
      {"compare", "compare " + src + "/scenarios/llama3.1-70b-compare-latency-models.yaml"},
      {"validate-data", "validate-data " + src + "/data/measurements-h200.csv --latency roofline,calibrated"},
      {"explore", "explore " + src + "/scenarios/llama3.1-70b-hbm-vs-links-explore.yaml"},
      {"explore-serve", "explore " + src + "/scenarios/llama3.1-70b-serve-4k1k-pair-parts-explore.yaml"}};
  for (const auto& [name, study] : studies) {
    INFO(name);
    const std::string json = dir / (name + ".json");
    REQUIRE(tessera_cli(study + " --json " + json) == 0);
    CHECK(tessera_cli("report " + json + " --vega " + (dir / name)) == 0);
  }
}
