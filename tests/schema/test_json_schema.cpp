// The JSON Schema built from the field table: its shape, and what it allows and refuses.
#include <catch2/catch.hpp>
#include <regex>

#include "field_rows_util.hpp"
#include "json_schema_check.hpp"
#include "studies/entries/schema_entry.hpp"
#include "studies/json/field_text.hpp"
#include "studies/json/json_schema.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using schema::FieldFile;
using test::Json;

namespace {

// The sub-schema of a canonical path inside a file's schema (references: their inline form).
const Json* at_path(const Json& root, const std::string& path) {
  const Json* s = &root;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t dot = path.find('.', start);
    if (dot == std::string::npos) dot = path.size();
    const std::string seg = path.substr(start, dot - start);
    start = dot + 1;
    if (s->contains("anyOf") && !s->contains("properties")) {
      const Json* obj = nullptr;
      for (const Json& alt : (*s)["anyOf"])
        if (!obj && alt.value("type", "") == "object" && alt.contains("properties")) obj = &alt;
      if (obj) s = obj;
    }
    if (seg == "*") {
      if (!s->contains("items")) return nullptr;
      s = &(*s)["items"];
    } else if (seg == "<dtype>") {
      if (!s->contains("additionalProperties") || !(*s)["additionalProperties"].is_object()) return nullptr;
      s = &(*s)["additionalProperties"];
    } else {
      if (s->value("type", "") == "array") s = &(*s)["items"];
      if (!s->contains("properties") || !(*s)["properties"].contains(seg)) return nullptr;
      s = &(*s)["properties"][seg];
    }
  }
  return s;
}

bool allows(const Json& schema, const Json& value) { return test::schema_errors(schema, value).empty(); }

bool quantity_parses(const std::string& text, Dimension d) {
  try {
    parse_quantity(text, d);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

}  // namespace

TEST_CASE("json schema has a sub-schema with the help of every row") {
  const Json s = schema::json_schema(FieldFile::scenario);
  CHECK(s["$schema"] == "http://json-schema.org/draft-07/schema#");
  for (const schema::FieldRow* rp : test::all_rows()) {
    const schema::FieldRow& r = *rp;
    INFO(r.path);
    const Json* sub = at_path(s, std::string(r.path));
    REQUIRE(sub);
    CHECK((*sub)["description"].get<std::string>().starts_with(r.spec.help));
  }
}

TEST_CASE("json schema of a machine nests dotted paths in closed objects") {
  const Json s = schema::json_schema(FieldFile::machine);
  CHECK(s["type"] == "object");
  CHECK(s["additionalProperties"] == false);
  for (const char* k : {"schema_version", "kind"})
    CHECK(std::find(s["required"].begin(), s["required"].end(), k) != s["required"].end());
  CHECK(s["properties"]["kind"]["enum"] == Json::array({"machine"}));
  const Json& hbm = s["properties"]["pe"]["properties"]["hbm"];
  CHECK(hbm["additionalProperties"] == false);
  CHECK(std::find(hbm["required"].begin(), hbm["required"].end(), "capacity") != hbm["required"].end());
  CHECK(s["properties"]["levels"]["type"] == "array");
  CHECK(s["properties"]["levels"]["items"]["additionalProperties"] == false);

  CHECK_FALSE(allows(s, Json{{"schema_version", 1}, {"kind", "machine"}, {"bogus", 1}}));
  CHECK(test::schema_errors(s, Json{{"schema_version", 1}, {"kind", "machine"}, {"bogus", 1}}) ==
        std::vector<std::string>{"bogus: key not allowed", "(root): missing required key 'name'",
                                 "(root): missing required key 'pe'",
                                 "(root): missing required key 'levels'"});
  CHECK_FALSE(allows(s, Json{{"schema_version", 1}, {"kind", "model"}}));
  CHECK_FALSE(allows(s, Json{{"kind", "machine"}}));
}

TEST_CASE("json schema quantities are strings with a unit of their dimension") {
  const Json s = schema::json_schema(FieldFile::machine);
  const Json& capacity = s["properties"]["pe"]["properties"]["hbm"]["properties"]["capacity"];
  CHECK(capacity["type"] == "string");
  CHECK(allows(capacity, "80 GB"));
  CHECK(allows(capacity, "80GiB"));
  CHECK_FALSE(allows(capacity, "80"));
  CHECK_FALSE(allows(capacity, 80));
  CHECK_FALSE(allows(capacity, "3.35 TB/s"));
  const Json& usable = s["properties"]["pe"]["properties"]["hbm"]["properties"]["usable"];
  CHECK(allows(usable, 0.92));
  CHECK(allows(usable, "92%"));
  CHECK_FALSE(allows(usable, 1.5));
  CHECK_FALSE(allows(usable, "most"));
}

TEST_CASE("json schema quantity patterns agree with the unit parser") {
  const std::vector<std::pair<std::string, Dimension>> cases = {
      {"3.35 TB/s", Dimension::bandwidth},
      {"450GB/s", Dimension::bandwidth},
      {"400 Gb/s", Dimension::bandwidth},
      {"2 GiB/s", Dimension::bandwidth},
      {"3.35", Dimension::bandwidth},
      {"3 TB", Dimension::bandwidth},
      {"80 GiB", Dimension::bytes},
      {"141 GB", Dimension::bytes},
      {"8 Gb", Dimension::bytes},
      {"16 mB", Dimension::bytes},
      {"2 us", Dimension::time},
      {"2 µs", Dimension::time},
      {"1.5 ms", Dimension::time},
      {"0 s", Dimension::time},
      {".5 s", Dimension::time},
      {"2 Kis", Dimension::time},
      {"989 TFLOP/s", Dimension::flop_rate},
      {"1979 TFLOPS", Dimension::flop_rate},
      {"400 TOPS", Dimension::flop_rate},
      {"1e12 flop/s", Dimension::flop_rate},
      {"989 TFLOPs", Dimension::flop_rate},
      {"2 TFLOP", Dimension::flops},
      {"0.5 pJ", Dimension::energy},
      {"30pJ", Dimension::energy},
      {"700 W", Dimension::power},
      {"1.2 kW", Dimension::power},
      {"30000 USD", Dimension::money},
      {"25 kUSD", Dimension::money},
      {"25 KiUSD", Dimension::money},
      {"fast", Dimension::time},
  };
  for (const auto& [text, dim] : cases) {
    INFO(text << " as " << dimension_name(dim));
    CHECK(std::regex_search(text, std::regex(schema::quantity_pattern(dim))) == quantity_parses(text, dim));
  }
}

TEST_CASE("json schema of a scenario takes references choices and lists") {
  const Json s = schema::json_schema(FieldFile::scenario);
  const Json& model = s["properties"]["model"];
  CHECK(allows(model, "llama3.1-70b"));
  CHECK(allows(model, "../models/llama3.1-70b.yaml"));
  CHECK(allows(model, Json{{"heads", 64}}));
  CHECK_FALSE(allows(model, Json{{"heads", 0}}));
  CHECK_FALSE(allows(model, 7));
  const Json& machine = s["properties"]["machine"];
  // An inline machine is a whole machine but its name (the loader's rule).
  const auto inline_machine = [](const char* capacity) {
    return Json{
        {"pe", Json{{"flops", Json{{"bf16", "989 TFLOP/s"}}},
                    {"hbm", Json{{"capacity", capacity}, {"bandwidth", "3.35 TB/s"}}}}},
        {"levels",
         Json::array({Json{{"name", "node"}, {"fanout", 8}, {"link_bw", "450 GB/s"}, {"latency", "3 us"}}})}};
  };
  CHECK(allows(machine, inline_machine("80 GB")));
  CHECK_FALSE(allows(machine, inline_machine("80")));  // a byte size without its unit
  CHECK_FALSE(allows(machine, Json{{"pe", Json{{"hbm", Json{{"capacity", "80 GB"}}}}}}));  // no levels

  const Json* latency = at_path(s, "plugins.latency");
  REQUIRE(latency);
  CHECK(allows(*latency, "overlap"));
  CHECK(allows(*latency, Json{{"name", "overlap"}, {"tp_overlap", "chunked"}}));
  CHECK(allows(*latency, Json::array({"overlap", "roofline"})));
  CHECK_FALSE(allows(*latency, 42));
  CHECK_FALSE(allows(*latency, Json{{"tp_overlap", "chunked"}}));  // no name
  CHECK((*latency)["default"] == "calibrated");

  const Json* tp = at_path(s, "sweep.parallelism.tp");
  REQUIRE(tp);
  CHECK(allows(*tp, 4));
  CHECK(allows(*tp, Json::array({1, 2, 4})));
  CHECK_FALSE(allows(*tp, Json::array({0, 2})));
  CHECK_FALSE(allows(*tp, "four"));
}

TEST_CASE("the schema entry lists the three kinds in order and builds one JSON Schema", "[schema][entry]") {
  studies::SchemaOptions o;
  const studies::SchemaResult all = studies::file_schema(o);
  REQUIRE(all.kinds.size() == 3);
  CHECK(all.kinds[0].name == "model");
  CHECK(all.kinds[1].name == "machine");
  CHECK(all.kinds[2].name == "scenario");
  CHECK(all.kinds[1].rows == schema::rows_of(FieldFile::machine));
  CHECK(all.document.is_null());

  o.form = studies::SchemaForm::json_schema;  // no kind: the scenario's
  const studies::SchemaResult js = studies::file_schema(o);
  REQUIRE(js.kinds.size() == 1);
  CHECK(js.kinds[0].file == FieldFile::scenario);
  CHECK(js.document == schema::json_schema(FieldFile::scenario));

  o.kind = "model";
  CHECK(studies::file_schema(o).document == schema::json_schema(FieldFile::model));
  o.kind = "machin";
  CHECK_THROWS_WITH(studies::file_schema(o),
                    Catch::Contains("unknown kind 'machin' for tessera schema (did you mean 'machine'?)"));
  o.kind = "";
  o.doc = "docs/scenario-format.md";  // a --doc goes with the markdown form only
  CHECK_THROWS_WITH(studies::file_schema(o), "--doc FILE goes with --markdown");
}
