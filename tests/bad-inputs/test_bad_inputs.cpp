// The hostile cases are NAME.expect sidecars run by case_runner (README.md here). What they
// cannot express lives here: that no input lies in the folder without its .expect, that the
// fixtures the cases use are themselves valid, and a file with several problems.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <filesystem>
#include <set>
#include <string>

#include "scenario/scenario_loader.hpp"

namespace fs = std::filesystem;

TEST_CASE("every case input in bad-inputs belongs to a .expect", "[bad-inputs]") {
  const fs::path dir(TESSERA_TEST_DIR);
  std::set<std::string> cases;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".expect") cases.insert(e.path().stem().string());
  REQUIRE(cases.size() >= 47);
  std::size_t inputs = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() || (ext != ".yaml" && ext != ".json" && ext != ".csv")) continue;
    ++inputs;
    // NAME.yaml, or NAME.PART.yaml for a case with more than one input.
    const std::string file = e.path().filename().string();
    const std::string owner = file.substr(0, file.find('.'));
    INFO("orphan case input (no " << owner << ".expect): " << file);
    CHECK(cases.count(owner) == 1);
  }
  CHECK(inputs >= 47);
}

TEST_CASE("the fixtures the bad inputs use are themselves valid", "[bad-inputs]") {
  fs::current_path(fs::path(TESSERA_TEST_DIR).parent_path());
  tessera::LoadOptions options;
  options.data_root = "bad-inputs/data";
  CHECK_NOTHROW(tessera::validate_file("bad-inputs/fixtures/model.yaml", options));
  CHECK_NOTHROW(tessera::validate_file("bad-inputs/fixtures/machine.yaml", options));
  CHECK_NOTHROW(tessera::validate_file("bad-inputs/data/models/tiny-dense.yaml", options));
  CHECK_NOTHROW(tessera::validate_file("bad-inputs/data/machines/tiny-cube.yaml", options));
}

TEST_CASE("a file with several problems reports all of them", "[bad-inputs]") {
  fs::current_path(fs::path(TESSERA_TEST_DIR).parent_path());
  tessera::LoadOptions options;
  options.data_root = "bad-inputs/data";
  // misspelled-key.yaml: the unknown key and the then-missing `context`.
  try {
    tessera::validate_file("bad-inputs/misspelled-key.yaml", options);
    FAIL("expected InputErrors");
  } catch (const tessera::InputErrors& e) {
    REQUIRE(e.diagnostics().size() == 2);
    CHECK(e.diagnostics()[1].message ==
          "workload: missing required key 'context' (a token count, e.g. 128K)");
  }
}
