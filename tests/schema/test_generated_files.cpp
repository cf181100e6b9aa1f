// The committed generated files are what the generators write now: docs/scenario-format.md's
// key tables and docs/schema/{model,machine,scenario}.schema.json.
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "report/schema_docs/schema_markdown.hpp"
#include "studies/json/field_text.hpp"
#include "studies/json/json_schema.hpp"
#include "tessera_build_paths.hpp"

using namespace tessera;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

constexpr const char* kHowTo =
    "is not what the generator writes: run `make schema-docs` (it rewrites docs/scenario-format.md's "
    "generated tables and docs/schema/*.schema.json from the field table) and commit the result";

}  // namespace

TEST_CASE("docs/scenario-format.md key tables are current") {
  const std::string doc = slurp(std::string(TESSERA_SOURCE_DIR) + "/docs/scenario-format.md");
  const std::string now = schema::regenerate_markdown(doc);
  INFO("docs/scenario-format.md " << kHowTo);
  CHECK(now == doc);
  // The document does generate its tables: one section per kind at least.
  for (const char* kind : {"model", "machine", "scenario"})
    CHECK(doc.find(std::string("<!-- BEGIN GENERATED: ") + kind) != std::string::npos);
}

TEST_CASE("docs/schema JSON Schemas are current") {
  for (schema::FieldFile f :
       {schema::FieldFile::model, schema::FieldFile::machine, schema::FieldFile::scenario}) {
    const std::string name = std::string("docs/schema/") + schema::field_file_name(f) + ".schema.json";
    INFO(name << " " << kHowTo);
    CHECK(slurp(std::string(TESSERA_SOURCE_DIR) + "/" + name) == schema::json_schema(f).dump(2) + "\n");
  }
}
