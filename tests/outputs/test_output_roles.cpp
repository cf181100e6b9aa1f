// Outputs that would destroy inputs or each other (docs/limits.md "Outputs"): an
// output naming one of the command's inputs (the scenario, through any spelling or link), an
// output inside the --deploy folder, and a symbolic link planted in a --vega folder. Each is
// checked end to end through `tessera`, the inputs compared byte for byte afterwards.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "output_test_util.hpp"
#include "tessera_build_paths.hpp"
#include "tessera_quiet.hpp"

namespace test_output_roles {

using namespace tessera::test;

const char* kScenario =
    "schema_version: 1\nkind: scenario\nmodel: llama3.1-8b\nmachine: dgx-h100\n"
    "workload: {mode: decode, context: 4K, batch: 1}\n";

TEST_CASE("outputs: an output naming the command's own input is refused and the input kept") {
  TempDir d;
  const std::string s = d / "s.yaml", err = d / "err.txt";
  spit(s, kScenario);
  fs::create_symlink(s, d / "link.html");
  for (const std::string& option :
       {"--json " + s, "--csv " + s, "--html " + (d / "link.html"), "--json " + (d / "./s.yaml")}) {
    INFO(option);
    CHECK(tessera_quiet("run " + s + " " + option, err) == 2);
    CHECK(slurp(err).find(": is the command's input " + s + " (") != std::string::npos);
    CHECK(slurp(err).find("): an output cannot be one of the command's inputs") != std::string::npos);
    CHECK(slurp(s) == kScenario);
  }
  // Nothing but the inputs and the message is left.
  CHECK(d.names() == std::vector<std::string>{"err.txt", "link.html", "s.yaml"});
}

TEST_CASE("outputs: an output inside the --deploy folder is refused before the study") {
  TempDir d;
  const std::string err = d / "err.txt", dir = d / "deploy";
  fs::create_directory(dir);
  const std::string serve = "serve " + std::string(TESSERA_SOURCE_DIR) +
                            "/scenarios/llama3.1-70b-serve-4k1k-h100.yaml --set framework=vllm --deploy " +
                            dir;
  CHECK(tessera_quiet(serve + " --json " + dir + "/best.sh", err) == 2);
  CHECK(slurp(err).find("--json " + dir + "/best.sh: lies in the --deploy folder " + dir) !=
        std::string::npos);
  CHECK(fs::is_empty(dir));
  CHECK(tessera_quiet(serve + " --html " + dir, err) == 2);  // the folder itself
  CHECK(fs::is_empty(dir));
  // Beside it, both are written.
  CHECK(tessera_quiet(serve + " --json " + (d / "serve.json"), err) == 0);
  CHECK(fs::exists(dir + "/best.sh"));
  CHECK(fs::exists(d / "serve.json"));
}

TEST_CASE("outputs: a symbolic link planted in a --vega folder is replaced and its target kept") {
  TempDir d;
  const std::string err = d / "err.txt", vega = d / "vega", outside = d / "outside.txt";
  fs::create_directory(vega);
  spit(outside, "not tessera's\n");
  fs::create_symlink(outside, vega + "/pareto.vl.json");
  CHECK(tessera_quiet("run " + std::string(TESSERA_SOURCE_DIR) +
                          "/scenarios/llama3.1-8b-decode-4k-h100.yaml --vega " + vega,
                      err) == 0);
  CHECK(slurp(outside) == "not tessera's\n");
  CHECK_FALSE(fs::is_symlink(vega + "/pareto.vl.json"));
  CHECK(slurp(vega + "/pareto.vl.json").find("\"$schema\"") != std::string::npos);
}

}  // namespace test_output_roles
