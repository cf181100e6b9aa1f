// `--width N` end to end on shipped scenarios: no line wider than N display columns, the note
// naming what was left out where something was; no --width into a pipe = the full output, the
// same as --width 0; a bad --width exits 2.
#include <catch2/catch.hpp>
#include <cstdio>
#include <sstream>
#include <string>

#include "report/text/text_table.hpp"
#include "tessera_build_paths.hpp"

#include "shell_run.hpp"

namespace {

using tessera::testing::Ran;

// A shell command's exit status and standard output.
Ran tessera_cli_raw(const std::string& cmd) { return tessera::testing::shell(cmd + " 2>/dev/null"); }

// tessera ARGS -q into a pipe, with COLUMNS=40 in its environment (a pipe ignores it).
Ran tessera_cli(const std::string& args) {
  return tessera_cli_raw("TESSERA_PLUGIN_PATH= COLUMNS=40 " + std::string(TESSERA_BINARY_DIR) +
                         "/bin/tessera " + args + " -q");
}

std::size_t widest(const std::string& text) {
  std::istringstream in(text);
  std::string l;
  std::size_t w = 0;
  while (std::getline(in, l)) w = std::max(w, tessera::display_width(l));
  return w;
}

std::string scenario(const char* name) { return std::string(TESSERA_SOURCE_DIR) + "/scenarios/" + name; }

}  // namespace

TEST_CASE("run explore and compare fit 80 and 120 columns") {
  const std::string studies[] = {
      "run",
      "explore " + scenario("llama3.1-70b-hbm-vs-links-explore.yaml"),
      "compare " + scenario("llama3.1-70b-compare-latency-models.yaml"),
  };
  for (const std::string& study : studies) {
    const Ran full = tessera_cli(study);
    REQUIRE(full.rc == 0);
    CHECK(widest(full.out) > 120);  // today's width: 135, 174, 210
    for (int width : {80, 120}) {
      INFO(study << " --width " << width);
      const Ran fitted = tessera_cli(study + " --width " + std::to_string(width));
      REQUIRE(fitted.rc == 0);
      CHECK(widest(fitted.out) <= static_cast<std::size_t>(width));
      if (width == 80) CHECK(fitted.out.find("every row:") != std::string::npos);
    }
  }
  // At 80 columns run leaves out the memory column and explore the evaluated counts, and say so.
  CHECK(tessera_cli("run --width 80")
            .out.find("left out to fit 80 columns: memory (--width 0 shows every column)") !=
        std::string::npos);
  CHECK(tessera_cli(studies[1] + " --width 80").out.find("left out to fit 80 columns: evaluated") !=
        std::string::npos);
}

TEST_CASE("into a pipe the output is the full one whatever COLUMNS says") {
  const Ran piped = tessera_cli("run");  // COLUMNS=40 in the environment
  const Ran zero = tessera_cli("run --width 0");
  REQUIRE(piped.rc == 0);
  CHECK(piped.out == zero.out);
  CHECK(piped.out.find("left out") == std::string::npos);
  CHECK(piped.out.find("Pareto frontier, drawn") == std::string::npos);  // never plotted into a pipe
  CHECK(widest(piped.out) > 120);
}

TEST_CASE("serve fits 80 columns and --no-plot is accepted") {
  for (const char* name : {"llama3.1-70b-serve-4k1k-h100.yaml", "llama3.1-70b-serve-4k1k-h100-disagg.yaml"}) {
    INFO(name);
    const Ran full = tessera_cli("serve " + scenario(name));
    const Ran r = tessera_cli("serve " + scenario(name) + " --width 80 --no-plot");
    REQUIRE(r.rc == 0);
    CHECK(widest(r.out) <= 80);
    CHECK(widest(full.out) > 80);  // today: 98 and 93
  }
}

TEST_CASE("a width that is not a whole number exits 2") {
  CHECK(tessera_cli("run --width eighty").rc == 2);
  CHECK(tessera_cli("run --width -3").rc == 2);
}

TEST_CASE("on a terminal run draws the frontier and --no-plot leaves it out") {
  // A pseudo-terminal from util-linux's script(1); where none can be had the case says so.
  const auto on_tty = [](const std::string& args) {
    return tessera_cli_raw("script -qec \"COLUMNS=80 TESSERA_PLUGIN_PATH= " +
                           std::string(TESSERA_BINARY_DIR) + "/bin/tessera " + args + " -q\" /dev/null");
  };
  const Ran plotted = on_tty("run");
  if (plotted.rc != 0 || plotted.out.find("scenario") == std::string::npos) {
    WARN("no pseudo-terminal (script -qec): the terminal case is not checked");
    return;
  }
  CHECK(plotted.out.find("Pareto frontier, drawn (--no-plot leaves it out)") != std::string::npos);
  CHECK(plotted.out.find("★ best cp=8 tp=16") != std::string::npos);
  CHECK(plotted.out.find("latency (log)") != std::string::npos);
  CHECK(plotted.out.find("left out to fit 80 columns") != std::string::npos);  // COLUMNS on a terminal
  const Ran plain = on_tty("run --no-plot");
  REQUIRE(plain.rc == 0);
  CHECK(plain.out.find("Pareto frontier, drawn") == std::string::npos);
  const Ran serve = on_tty("serve " + scenario("llama3.1-70b-serve-4k1k-h100.yaml"));
  CHECK(serve.out.find("TPOT SLO 50 ms (20.0 tok/s/user)") != std::string::npos);
  CHECK(serve.out.find("tokens/s/PE") != std::string::npos);
}

TEST_CASE("sensitivity and validate-data fit the width and say what they left out") {
  const Ran full = tessera_cli("sensitivity");
  REQUIRE(full.rc == 0);
  CHECK(widest(full.out) > 100);  // the reasons: 123 columns
  CHECK(full.out == tessera_cli("sensitivity --width 0").out);
  const Ran sens = tessera_cli("sensitivity --width 80");
  REQUIRE(sens.rc == 0);
  CHECK(widest(sens.out) <= 80);
  CHECK(sens.out.find("left out to fit 80 columns: reason (--width 0 shows every column)") !=
        std::string::npos);
  const std::string vd =
      "validate-data " + std::string(TESSERA_SOURCE_DIR) + "/data/measurements-h200.csv --latency calibrated";
  const Ran vfull = tessera_cli(vd);
  REQUIRE(vfull.rc == 0);
  CHECK(widest(vfull.out) > 100);
  const Ran v = tessera_cli(vd + " --width 100");
  REQUIRE(v.rc == 0);
  CHECK(widest(v.out) <= 100);
  CHECK(v.out.find("left out to fit 100 columns: source (--width 0 shows every column)") !=
        std::string::npos);
}

TEST_CASE("explain fits 80 and 120 columns and says what it left out") {
  const std::string studies[] = {
      "explain " + scenario("llama3.1-70b-decode-4k-h100.yaml") + " -c cp=2,tp=8",
      "explain " + scenario("deepseek-v3-decode-32k-h200.yaml"),
      "explain -c cp=8,tp=4 --set workload.context=16K",  // the default scenario; canonicalised
  };
  for (const std::string& study : studies) {
    INFO(study);
    const Ran full = tessera_cli(study);
    REQUIRE(full.rc == 0);
    CHECK(widest(full.out) > 120);  // the configuration line: 127 columns
    CHECK(full.out == tessera_cli(study + " --width 0").out);
    for (int width : {80, 120}) {
      INFO("--width " << width);
      const Ran fitted = tessera_cli(study + " --width " + std::to_string(width));
      REQUIRE(fitted.rc == 0);
      CHECK(widest(fitted.out) <= static_cast<std::size_t>(width));
      CHECK(fitted.out.find("Totals:") != std::string::npos);
    }
  }
  const Ran tp8 = tessera_cli(studies[0] + " --width 80");
  CHECK(tp8.out.find("left out to fit 80 columns: ") != std::string::npos);
  CHECK(tp8.out.find("comm t") != std::string::npos);
  CHECK(tp8.out.find("compute") != std::string::npos);            // the times stay
  CHECK(tp8.out.find("tp_placement=gpu,") != std::string::npos);  // the configuration, broken after a comma
}
