// Text from files and the command line reaches a terminal escaped (docs/limits.md
// "Safe diagnostics" and "Outputs"): ESC, CR, NUL and other control bytes are never printed raw
// by any command's normal output, a name's newline cannot start a line of its own (validate's
// `FILE: ok` line, a table's cells, the scenario line), names with control characters are
// refused at their key, and results that could not be written to stdout are a failure (exit 1).
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "output_test_util.hpp"
#include "shell_run.hpp"
#include "tessera_build_paths.hpp"

namespace test_escapes_cli {

namespace fs = std::filesystem;
using tessera::test::slurp;
using tessera::test::spit;
using tessera::test::TempDir;
using tessera::testing::Ran;

std::string tessera_exe() { return std::string(TESSERA_BINARY_DIR) + "/bin/tessera"; }

// tessera ARGS with stdout captured; stderr into `err` when given, else discarded.
Ran tessera_run(const std::string& args, const std::string& err = "/dev/null") {
  return tessera::testing::shell("TESSERA_PLUGIN_PATH= " + tessera_exe() + " " + args + " 2>" + err);
}

// The shipped scenario `name` with its relative paths made absolute (so it runs from anywhere).
std::string shipped_scenario(const std::string& name) {
  const std::string root = TESSERA_SOURCE_DIR;
  std::string text = slurp(root + "/scenarios/" + name);
  for (const std::string dir : {"models/", "machines/"})
    for (std::size_t at = 0; (at = text.find("../" + dir, at)) != std::string::npos;)
      text.replace(at, 3 + dir.size(), root + "/" + dir);
  return text;
}

// A control byte other than newline or tab anywhere in `text`.
bool has_raw_control(const std::string& text) {
  for (unsigned char c : text)
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) return true;
  return false;
}

std::size_t lines(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

TEST_CASE("escapes: validate's ok line writes the file's name escaped on one line") {
  TempDir dir;
  const std::string file = dir / "good\x1b[2J\nforged: ok.yaml";
  spit(file, shipped_scenario("llama3.1-8b-decode-4k-h100.yaml"));
  const Ran r = tessera_run("validate '" + file + "'");
  CHECK(r.rc == 0);
  CHECK_FALSE(has_raw_control(r.out));
  CHECK(lines(r.out) == 1);
  CHECK(r.out.find("good\\e[2J\\nforged: ok.yaml: ok\n") != std::string::npos);
}

TEST_CASE("escapes: a scenario named by its file keeps the file's newline and ESC escaped in run's report") {
  TempDir dir;
  std::string text = shipped_scenario("llama3.1-8b-decode-4k-h100.yaml");
  text.erase(text.find("\nname: "), text.find('\n', text.find("\nname: ") + 1) - text.find("\nname: "));
  const std::string file = dir / "s\x1b]0;title\x07\nbest       forged.yaml";
  spit(file, text);
  const Ran r = tessera_run("run -q '" + file + "'");
  CHECK(r.rc == 0);
  CHECK_FALSE(has_raw_control(r.out));
  CHECK(r.out.find("scenario   s\\e]0;title\\x07\\nbest       forged: ") != std::string::npos);
  CHECK(r.out.find("\nbest       forged") == std::string::npos);
}

TEST_CASE("escapes: names with control characters are refused at their key") {
  TempDir dir;
  for (const std::string& bad : {std::string("a\\e[31mred"), std::string("two\\nlines"),
                                 std::string("cr\\rx"), std::string("nul\\0x")}) {
    INFO(bad);
    std::string text = shipped_scenario("llama3.1-8b-decode-4k-h100.yaml");
    const std::size_t at = text.find("\nname: ");
    REQUIRE(at != std::string::npos);
    text.replace(at + 1, text.find('\n', at + 1) - at - 1, "name: \"" + bad + "\"");
    spit(dir / "s.yaml", text);
    const std::string err = dir / "err.txt";
    const Ran r = tessera_run("run -q " + (dir / "s.yaml"), err);
    CHECK(r.rc == 2);
    CHECK(r.out.empty());
    const std::string e = slurp(err);
    CHECK_FALSE(has_raw_control(e));
    CHECK(e.find("s.yaml:") != std::string::npos);
    CHECK(e.find(": error: name: expected one line of text without control characters, found ") !=
          std::string::npos);
  }
}

TEST_CASE("escapes: validate-data's tables escape sources and ids from the CSV") {
  TempDir dir;
  const std::string root = TESSERA_SOURCE_DIR;
  std::istringstream in(slurp(root + "/data/measurements-h200.csv"));
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  // The second column (source) made hostile: ESC, CR and a newline inside a quoted cell.
  const std::size_t c1 = row.find(','), c2 = row.find(',', c1 + 1);
  row.replace(c1 + 1, c2 - c1 - 1, "\"evil\x1b[31m\r\nsource\"");
  spit(dir / "m.csv", header + "\n" + row + "\n");
  const Ran r = tessera_run("validate-data " + (dir / "m.csv") + " --latency roofline -q");
  CHECK(r.rc == 0);
  CHECK_FALSE(has_raw_control(r.out));
  CHECK(r.out.find("evil\\e[31m\\r\\nsource") != std::string::npos);
}

TEST_CASE("escapes: an unknown command and a plugin folder are echoed escaped on stderr") {
  TempDir dir;
  const std::string err = dir / "err.txt";
  const Ran r = tessera::testing::shell("TESSERA_PLUGIN_PATH=\"$(printf '/nonexistent/\\033[2Jp')\" " +
                                        tessera_exe() + " plugins 2>&1");
  CHECK_FALSE(has_raw_control(r.out));
  CHECK(r.out.find("/nonexistent/\\e[2Jp") != std::string::npos);
  const Ran u = tessera::testing::shell(tessera_exe() + " \"$(printf 'x\\033[2J')\" 2>&1");
  CHECK(u.rc == 2);
  CHECK_FALSE(has_raw_control(u.out));
  CHECK(u.out.find("tessera: unknown command 'x\\e[2J'") != std::string::npos);
}

TEST_CASE("escapes: results that cannot be written to stdout are a failure - exit 1") {
  const Ran r =
      tessera::testing::shell("TESSERA_PLUGIN_PATH= " + tessera_exe() + " run -q " + TESSERA_SOURCE_DIR +
                              "/scenarios/llama3.1-8b-decode-4k-h100.yaml 2>&1 >/dev/full; echo \"rc=$?\"");
  // stderr into the pipe (2>&1 first), then stdout to /dev/full.
  CHECK(r.out.find("tessera: error: cannot write the results to stdout (No space left on device)") !=
        std::string::npos);
  CHECK(r.out.find("rc=1") != std::string::npos);
}

}  // namespace test_escapes_cli
