// The markdown key tables and the rewriting of a document's generated sections.
#include <catch2/catch.hpp>
#include <stdexcept>

#include "report/schema_docs/schema_markdown.hpp"

using namespace tessera;

namespace {

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string error_of(const std::string& doc) {
  try {
    schema::regenerate_markdown(doc);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("markdown key table of a kind lists its keys with type default and help") {
  const std::string t = schema::markdown_key_table("machine");
  CHECK(t.starts_with("| key | type | range / choices | default | meaning |\n|---|---|---|---|---|\n"));
  CHECK(has(t, "| `pe.hbm.capacity` | byte size (B) | "));
  CHECK(has(t, "| **required** | "));
  CHECK(has(t, "| `levels[].link_bw` | bandwidth (B/s) | "));
  CHECK_FALSE(has(t, "`heads`"));
}

TEST_CASE("markdown key table of a prefix shows keys relative to it") {
  const std::string t = schema::markdown_key_table("machine.pe.hbm");
  CHECK(has(t, "| `capacity` | byte size (B) |"));
  CHECK_FALSE(has(t, "link_bw"));
  const std::string except = schema::markdown_key_table("machine except machine.pe");
  CHECK_FALSE(has(except, "| `pe."));
  CHECK(has(except, "| `host_memory.dram.capacity` |"));
  CHECK(has(except, "| `levels[].link_bw` |"));
}

TEST_CASE("markdown key table refuses a selector that selects nothing") {
  CHECK_THROWS_WITH(schema::markdown_key_table("machine.nothing"),
                    "generated section 'machine.nothing' selects no key");
  CHECK_THROWS_WITH(schema::markdown_key_table("machine except"),
                    "generated section 'machine except': expected `SELECTOR [except PREFIX]...`");
}

TEST_CASE("regenerating a document replaces its sections and keeps its prose") {
  const std::string doc =
      "# Title\n\nProse before.\n\n<!-- BEGIN GENERATED: machine.pe.hbm -->\nstale table\n"
      "<!-- END GENERATED -->\n\nProse after.\n";
  const std::string now = schema::regenerate_markdown(doc);
  CHECK(now.starts_with(
      "# Title\n\nProse before.\n\n<!-- BEGIN GENERATED: machine.pe.hbm -->\n<!-- Generated"));
  CHECK(now.ends_with("|\n<!-- END GENERATED -->\n\nProse after.\n"));
  CHECK_FALSE(has(now, "stale table"));
  CHECK(has(now, schema::markdown_key_table("machine.pe.hbm")));
  CHECK(schema::regenerate_markdown(now) == now);  // idempotent
  CHECK(schema::regenerate_markdown("no sections\n") == "no sections\n");
}

TEST_CASE("regenerating a document refuses broken sections with their line") {
  CHECK(error_of("a\n<!-- BEGIN GENERATED: machine -->\nx\n") ==
        "line 2: generated section never ends (`<!-- END GENERATED -->`)");
  CHECK(error_of("a\n<!-- END GENERATED -->\n") ==
        "line 2: `<!-- END GENERATED -->` without a section begun before it");
  CHECK(error_of(
            "<!-- BEGIN GENERATED: model -->\n<!-- BEGIN GENERATED: machine -->\n<!-- END GENERATED -->\n") ==
        "line 2: a generated section begins inside the one begun at line 1");
  CHECK(error_of("<!-- BEGIN GENERATED: model.nothing -->\n<!-- END GENERATED -->\n") ==
        "line 1: generated section 'model.nothing' selects no key");
}
