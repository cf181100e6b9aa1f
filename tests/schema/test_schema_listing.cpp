// `tessera schema KIND`'s listing: every key, its type and unit, default or required, within
// the width asked.
#include <algorithm>
#include <catch2/catch.hpp>
#include <sstream>

#include "field_rows_util.hpp"
#include "report/schema_docs/schema_listing.hpp"
#include "report/text/text_table.hpp"
#include "studies/json/field_text.hpp"

using namespace tessera;
using schema::FieldFile;

namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string line_starting(const std::string& text, const std::string& start) {
  for (const auto& l : lines(text))
    if (l.starts_with(start + " ")) return l;
  return "";
}

}  // namespace

TEST_CASE("schema keys are shown as written in their own file") {
  const auto* capacity = test::row("machine.pe.hbm.capacity");
  const auto* link = test::row("machine.levels.*.link_bw");
  const auto* heads = test::row("model.heads");
  const auto* tp = test::row("sweep.parallelism.tp");
  const auto* latency = test::row("plugins.latency");
  REQUIRE((capacity && link && heads && tp && latency));
  CHECK(schema::display_key(*capacity) == "pe.hbm.capacity");
  CHECK(schema::display_key(*link) == "levels[].link_bw");
  CHECK(schema::display_key(*heads) == "heads");
  CHECK(schema::display_key(*tp) == "sweep.parallelism.tp");
  CHECK(schema::type_text(*capacity) == "byte size (B)");
  CHECK(schema::type_text(*link) == "bandwidth (B/s)");
  CHECK(schema::type_text(*heads) == "integer");
  CHECK(schema::type_text(*tp) == "list of integer");
  CHECK(schema::type_text(*latency) == "plugin choice");
  CHECK(schema::default_text(*capacity) == "required");
  CHECK(schema::default_text(*latency) == "calibrated");
  CHECK(schema::range_text(*latency).empty());
}

TEST_CASE("schema listing names every key of its kind and fits 100 columns") {
  for (FieldFile f : {FieldFile::model, FieldFile::machine, FieldFile::scenario}) {
    const std::string text = schema::schema_listing(f);
    INFO(schema::field_file_name(f) << ":\n" << text);
    for (const auto& l : lines(text)) CHECK(display_width(l) <= 100);
    const auto rows = schema::rows_of(f);
    REQUIRE(!rows.empty());
    for (const auto* r : rows) CHECK(line_starting(text, schema::display_key(*r)) != "");
  }
}

TEST_CASE("schema listing of a machine shows type unit and required") {
  const std::string text = schema::schema_listing(FieldFile::machine);
  const std::string l = line_starting(text, "pe.hbm.capacity");
  CHECK(l.find("byte size (B)") != std::string::npos);
  CHECK(l.find("required") != std::string::npos);
  CHECK(line_starting(text, "KEY").find("DEFAULT") != std::string::npos);
  CHECK(text.starts_with("Machine keys:"));
}

TEST_CASE("schema listing narrower than its columns puts range and help under each key") {
  // The machine's columns (its longest key is a collectives path) need about 84 of the 100.
  const std::string text = schema::schema_listing(FieldFile::machine, 100);
  INFO(text);
  for (const auto& l : lines(text)) CHECK(display_width(l) <= 100);
  const auto all = lines(text);
  const auto it = std::find_if(all.begin(), all.end(),
                               [](const std::string& l) { return l.starts_with("levels[].link_bw "); });
  REQUIRE(it != all.end());
  CHECK(it->find("bandwidth (B/s)") != std::string::npos);
  CHECK(it->ends_with("required"));
  std::string under;  // the indented lines after the key's
  for (auto l = it + 1; l != all.end() && l->starts_with("    "); ++l) under += l->substr(4) + " ";
  CHECK(under.find("; range (0 B/s, ∞)") != std::string::npos);  // a positive bandwidth
}

TEST_CASE("schema listing too narrow for columns puts each key in a block") {
  const std::string text = schema::schema_listing(FieldFile::machine, 40);
  INFO(text);
  for (const auto& l : lines(text))
    if (l.find(' ') != std::string::npos) CHECK(display_width(l) <= 40);
  CHECK(line_starting(text, "levels[].link_bw").starts_with("levels[].link_bw — bandwidth (B/s),"));
}
