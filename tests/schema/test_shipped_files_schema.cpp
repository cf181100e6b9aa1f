// Every shipped model, machine and scenario file is allowed by the JSON Schema of its kind.
#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "field_rows_util.hpp"
#include "json_schema_check.hpp"
#include "studies/json/json_schema.hpp"
#include "tessera_build_paths.hpp"

namespace fs = std::filesystem;
using namespace tessera;

namespace {

void check_folder(schema::FieldFile kind, const char* folder) {
  const test::Json s = schema::json_schema(kind);
  int files = 0;
  for (const auto& e : fs::directory_iterator(fs::path(TESSERA_SOURCE_DIR) / folder)) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    INFO(e.path().string());
    const std::vector<std::string> errors =
        test::schema_errors(s, test::yaml_to_json(YAML::LoadFile(e.path())));
    std::string all;
    for (const auto& m : errors) all += m + "\n";
    INFO(all);
    CHECK(errors.empty());
  }
  CHECK(files >= 10);
}

}  // namespace

TEST_CASE("every shipped model file is allowed by the model schema") {
  check_folder(schema::FieldFile::model, "models");
}

TEST_CASE("every shipped machine file is allowed by the machine schema") {
  check_folder(schema::FieldFile::machine, "machines");
}

TEST_CASE("every shipped scenario file is allowed by the scenario schema") {
  check_folder(schema::FieldFile::scenario, "scenarios");
}
