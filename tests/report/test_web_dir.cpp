// Where --html finds vega, vega-lite and vega-embed (framework/app/web_dir.cpp): the places in
// order, the first that holds all three bundles, and the error naming every place looked.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "output_test_util.hpp"
#include "tessera/error.hpp"
#include "tessera_build_paths.hpp"
#include "web_dir.hpp"

using tessera::cli::first_web_dir;
using tessera::cli::web_dir_candidates;
using tessera::test::TempDir;

namespace {

// Writes the three packages' bundle and package.json under `dir` (all but `skip`).
void fill(const std::string& dir, const std::string& skip = "") {
  for (const std::string p : {"vega", "vega-lite", "vega-embed"}) {
    if (p == skip) continue;
    std::filesystem::create_directories(dir + "/" + p + "/build");
    std::ofstream(dir + "/" + p + "/build/" + p + ".min.js") << "/* " << p << " */";
    std::ofstream(dir + "/" + p + "/package.json") << R"({"version": "1.0.0"})";
  }
}

}  // namespace

TEST_CASE("web dir candidates - the variable alone else beside the executable then the build") {
  CHECK(web_dir_candidates("/env/web", "/opt/t/bin", "/src/node_modules") ==
        std::vector<std::string>{"/env/web"});
  CHECK(web_dir_candidates("", "/opt/t/bin", "/src/node_modules") ==
        std::vector<std::string>{"/opt/t/share/tessera/web", "/src/node_modules"});
  CHECK(web_dir_candidates("", "", "/src/node_modules") == std::vector<std::string>{"/src/node_modules"});
}

TEST_CASE("web dir: the first place holding all three bundles") {
  TempDir dir;
  const std::string installed = dir / "share/tessera/web", build = dir / "node_modules";
  fill(build);
  fill(installed, "vega-embed");  // incomplete: passed over
  CHECK(first_web_dir({installed, build}) == build);
  fill(installed);
  CHECK(first_web_dir({installed, build}) == installed);
  CHECK(first_web_dir({dir / "none"}).empty());
}

TEST_CASE("web dir: none found names every place looked and exits 1") {
  TempDir dir;
  ::setenv("TESSERA_WEB_DIR", (dir / "empty").c_str(), 1);
  try {
    (void)tessera::cli::web_dir();
    FAIL("web_dir() found a folder in " << dir / "empty");
  } catch (const tessera::Error& e) {
    const std::string m = e.what();
    CHECK(m.find("found in none of: " + (dir / "empty")) != std::string::npos);
    CHECK(m.find("$TESSERA_WEB_DIR is set") != std::string::npos);
  }
  ::unsetenv("TESSERA_WEB_DIR");
  // No build default is compiled in: only the folder beside the executable, where the build
  // stages the bundles (tessera_stage_data) when `npm ci` installed them.
  const std::string beside =
      (std::filesystem::path(TESSERA_BINARY_DIR) / "bin/../share/tessera/web").lexically_normal().string();
  CHECK(tessera::cli::web_dir_candidates() == std::vector<std::string>{beside});
  if (std::filesystem::exists(std::filesystem::path(beside) / "vega" / "package.json"))
    CHECK(tessera::cli::web_dir_description().rfind(beside + " (vega ", 0) == 0);
  else
    CHECK(tessera::cli::web_dir_description() == "none found (looked in " + beside + ")");
}
