// One version number, written once (CMakeLists.txt's project(VERSION)): `tessera --version` and
// the `version` of every command's JSON output are that number, passed here by CMake itself
// (TESSERA_CMAKE_VERSION), not read from the generated header the executable uses.
#include <catch2/catch.hpp>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "tessera_build_paths.hpp"

namespace {

// stdout of `tessera ARGS` (stderr discarded), and its exit status.
std::string run_tessera(const std::string& args, int* status = nullptr) {
  const std::string cmd = std::string(TESSERA_BINARY_DIR) + "/bin/tessera " + args + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int rc = ::pclose(p);
  if (status) *status = rc;
  return out;
}

std::string small() {
  return std::string(TESSERA_SOURCE_DIR) + "/tests/calibration/fixtures/compare-small.yaml";
}

}  // namespace

TEST_CASE("tessera --version prints the CMake project version", "[version]") {
  int rc = -1;
  const std::string out = run_tessera("--version", &rc);
  CHECK(out.rfind(std::string("tessera ") + TESSERA_CMAKE_VERSION + "\n", 0) == 0);
  CHECK(rc == 0);
  // Then where the plugins and the report's chart libraries come from: the build tree's.
  const std::size_t path_line = out.find("\nplugin path: ");
  REQUIRE(path_line != std::string::npos);
  CHECK(out.find(TESSERA_BUILD_PLUGIN_DIR, path_line) < out.find('\n', path_line + 1));
  CHECK(out.find("\nchart libraries: ") != std::string::npos);
}

TEST_CASE("every command's JSON records the version", "[version][json]") {
  const std::string s = small();
  for (const std::string& args :
       {"run " + s + " -q --json -", "explain " + s + " -q --config tp=2 --json -",
        "compare " + s + " -q --json -", "sensitivity " + s + " -q --parallelism --json -",
        "explore " + s + " -q --no-sensitivity -j 2 --json -",
        "validate-data " + std::string(TESSERA_SOURCE_DIR) + "/data/measurements-h200.csv -q --json -"}) {
    INFO("tessera " << args);
    const nlohmann::json j = nlohmann::json::parse(run_tessera(args));
    REQUIRE(j.contains("version"));
    CHECK(j["version"] == TESSERA_CMAKE_VERSION);
    // The command that produced it, as given (docs/report.md).
    CHECK(j.value("command", "") == "tessera " + args);
  }
}

TEST_CASE("every shipped plugin was built against this version", "[version][plugins]") {
  const nlohmann::json j = nlohmann::json::parse(run_tessera("plugins --json"));
  REQUIRE(j.is_array());
  REQUIRE(j.size() >= 13);
  for (const auto& p : j) {
    INFO(p["id"]);
    CHECK(p["framework_version"] == TESSERA_CMAKE_VERSION);
  }
}
