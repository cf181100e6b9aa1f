// Every file bad-inputs/*.yaml holds one input error. Its first line is
//   # expect: <the exact first diagnostic>
// and an optional second line `# set: KEY=VALUE` passes a --set override. Files are loaded
// from tests/ with the relative path bad-inputs/<file> (so diagnostics name that path), with
// the data root bad-inputs/data (models and machines found by name).
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string file;  // relative to tests/
  std::string expect;
  std::vector<std::string> set;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  const fs::path dir(TESSERA_TEST_DIR);
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().extension() != ".yaml") continue;
    // A case with a sidecar NAME.expect is checked by the sidecar runner (README.md).
    if (fs::exists(fs::path(e.path()).replace_extension(".expect"))) continue;
    std::ifstream in(e.path());
    std::string first, second;
    std::getline(in, first);
    std::getline(in, second);
    Case c;
    c.file = "bad-inputs/" + e.path().filename().string();
    const std::string tag = "# expect: ";
    if (first.rfind(tag, 0) == 0) c.expect = first.substr(tag.size());
    if (second.rfind("# set: ", 0) == 0) c.set.push_back(second.substr(7));
    out.push_back(c);
  }
  std::sort(out.begin(), out.end(), [](const Case& a, const Case& b) { return a.file < b.file; });
  return out;
}

}  // namespace

TEST_CASE("every bad input gives its expected first diagnostic", "[bad-inputs]") {
  fs::current_path(fs::path(TESSERA_TEST_DIR).parent_path());
  const auto all = cases();
  REQUIRE(all.size() >= 28);
  for (const auto& c : all) {
    INFO("file: " << c.file);
    CHECK_FALSE(c.expect.empty());  // the first line must say what is expected
    tessera::LoadOptions options;
    options.data_root = "bad-inputs/data";
    options.set = c.set;
    std::string first;
    std::size_t count = 0;
    try {
      tessera::validate_file(c.file, options);
    } catch (const tessera::InputErrors& e) {
      count = e.diagnostics().size();
      if (count > 0) first = e.diagnostics().front().format();
    }
    CHECK(count >= 1);
    CHECK(first == c.expect);
  }
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
