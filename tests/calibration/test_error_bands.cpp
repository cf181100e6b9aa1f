// Error bands (docs/accuracy.md "Error bands"): the band arithmetic on hand
// values, the lookup's fallbacks (framework row -> the family's `*` row -> uncalibrated; measured
// -> calibrated's rows), bound models, the band file's errors, the JSON fields, and the realistic
// default latency model.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <cmath>
#include <sstream>
#include <string>

#include "analysis/calibration/error_bands.hpp"
#include "analysis/search/search_driver.hpp"
#include "eval/session.hpp"
#include "registry_fixture.hpp"
#include "report/study_text/search_report.hpp"
#include "report/text/band_text.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_error_bands {

using namespace tessera;
using tessera::Band;  // not tessera::calibration::Band, which another file of the unity source may see
using tessera::test::registry;

namespace {

const char* kHeader = "latency_model,family,framework,fold,rows,sources,p10_ln,p50_ln,p90_ln\n";

// A shipped latency model as its descriptor declares it (error band, fallback).
BandModel model(const char* name) { return band_model(registry(), name); }

BandTable table() {
  return parse_band_table(std::string("# made by hand for the test\n") + kHeader +
                              "calibrated,H100/H200,*,leave-one-source-out,23,4,-0.1,0.05,0.2\n"
                              "calibrated,H100/H200,vllm,leave-one-source-out,8,2,-0.05,0.0,0.1\n"
                              "calibrated,H100/H200,sglang,leave-one-source-out,3,1,-0.3,0.0,0.3\n"
                              "calibrated,H100/H200,tensorrt-llm,leave-one-source-out,9,1,-0.4,0.0,0.4\n"
                              "calibrated,H100/H200,vllm,leave-one-machine-family-out,8,2,-0.5,0.0,0.5\n"
                              "measured,A100,*,leave-one-source-out,6,2,-0.02,0.0,0.04\n"
                              "calibrated,A100,*,leave-one-source-out,40,6,-0.3,0.0,0.3\n",
                          "bands.csv");
}

std::string parse_error(const std::string& body) {
  try {
    parse_band_table(body, "bad.csv");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

Scenario load(const std::string& name, std::vector<std::string> set = {}) {
  LoadOptions o;
  o.set = std::move(set);
  return load_scenario(std::string(TESSERA_SOURCE_DIR) + "/scenarios/" + name, o);
}

}  // namespace

TEST_CASE("error bands: the band arithmetic on hand values", "[bands]") {
  const Band b = find_band(table(), model("calibrated"), "H100/H200", "modern-stack");
  REQUIRE(b.has_band());
  // p10 = -0.1, p90 = 0.2: a latency P is measured in [P e^-0.2, P e^0.1], a throughput in
  // [P e^-0.1, P e^0.2].
  CHECK(b.latency_low_rel() == Approx(std::exp(-0.2) - 1));  // -0.181269
  CHECK(b.latency_low_rel() == Approx(-0.181269).margin(1e-6));
  CHECK(b.latency_high_rel() == Approx(0.105171).margin(1e-6));
  CHECK(b.throughput_low_rel() == Approx(-0.095163).margin(1e-6));
  CHECK(b.throughput_high_rel() == Approx(0.221403).margin(1e-6));
  CHECK(band_short(b, BandQuantity::latency) == "\u221218 %/+11 %");
  CHECK(band_short(b, BandQuantity::throughput) == "\u221210 %/+22 %");
  CHECK(band_provenance(b) ==
        "(H100/H200, serving frameworks pooled, 23 rows held out, 4 sources; no rows for modern-stack: the "
        "family's "
        "pooled band)");
  const nlohmann::json lat = band_json(b, BandQuantity::latency, 0.010);
  CHECK(lat["low_s"].get<double>() == Approx(0.0081873075));
  CHECK(lat["high_s"].get<double>() == Approx(0.0110517092));
  CHECK(lat["low_rel"].get<double>() == Approx(-0.181269).margin(1e-6));
  CHECK(lat["family"] == "H100/H200");
  CHECK(lat["framework"] == "*");
  CHECK(lat["fold"] == "leave-one-source-out");
  CHECK(lat["rows"] == 23);
  CHECK(lat["sources"] == 4);
  const nlohmann::json thr = band_json(b, BandQuantity::throughput, 1000.0);
  CHECK(thr["low_tok_s"].get<double>() == Approx(904.837418));
  CHECK(thr["high_tok_s"].get<double>() == Approx(1221.402758));
  CHECK(band_json(b, BandQuantity::latency, NAN)["low_s"].is_null());
}

TEST_CASE("error bands: the lookup falls back from the framework to the family then to uncalibrated",
          "[bands]") {
  const BandTable t = table();
  // vllm: its own row (8 >= 5 rows), of the leave-one-source-out fold (not the family fold's).
  const Band v = find_band(t, model("calibrated"), "H100/H200", "vllm");
  REQUIRE(v.has_band());
  CHECK(v.framework == "vllm");
  CHECK(v.rows == 8);
  CHECK(v.p10_ln == Approx(-0.05));
  CHECK(v.note.empty());
  CHECK(band_short(v, BandQuantity::latency) == "\u221210 %/+5 %");
  // sglang: 3 rows are too few, the family's pooled row.
  const Band s = find_band(t, model("calibrated"), "H100/H200", "sglang");
  REQUIRE(s.has_band());
  CHECK(s.framework == "*");
  CHECK(s.rows == 23);
  CHECK(s.note == "sglang: 3 rows from 1 source, the family's pooled band");
  // tensorrt-llm: 9 rows, but from one source only: the family's pooled row.
  const Band one = find_band(t, model("calibrated"), "H100/H200", "tensorrt-llm");
  REQUIRE(one.has_band());
  CHECK(one.framework == "*");
  CHECK(one.note == "tensorrt-llm: 9 rows from 1 source, the family's pooled band");
  // A family the table has no row for, and no family at all.
  const Band u = find_band(t, model("calibrated"), "B200", "vllm");
  CHECK(u.status == Band::Status::uncalibrated);
  CHECK(band_statement(u) == "uncalibrated: no measurements for this family (B200)");
  CHECK(find_band(t, model("calibrated"), "", "vllm").status == Band::Status::uncalibrated);
  CHECK(band_statement(find_band(t, model("calibrated"), "", "vllm")) ==
        "uncalibrated: no measurements for this family");
  // measured: its own rows where the family has some, else calibrated's, and says so.
  const Band ma = find_band(t, model("measured"), "A100", "vllm");
  REQUIRE(ma.has_band());
  CHECK(ma.latency_model == "measured");
  CHECK(ma.rows == 6);
  const Band mh = find_band(t, model("measured"), "H100/H200", "vllm");
  REQUIRE(mh.has_band());
  CHECK(mh.latency_model == "calibrated");
  CHECK(mh.framework == "vllm");
  CHECK(mh.note == "measured has no held-out rows for H100/H200: calibrated's band");
}

TEST_CASE("error bands: bound models print bound (no band)", "[bands]") {
  for (const char* m : {"overlap", "roofline", "sram_tier"}) {
    const Band b = find_band(table(), model(m), "H100/H200", "vllm");
    CHECK(b.status == Band::Status::bound);
    CHECK(band_statement(b) ==
          "bound (no band): " + std::string(m) + " is a physical bound, not fitted to measurements");
    CHECK(band_short(b, BandQuantity::latency).empty());
    const nlohmann::json j = band_json(b, BandQuantity::latency, 0.01);
    CHECK(j["status"] == "bound");
    CHECK(j.size() == 2);
  }
  // A row under a bound model's name is never its band: the descriptor's role decides, and the
  // table is refused at the row against the installed plugins.
  const BandTable with_row = parse_band_table(
      std::string("# c\n") + kHeader + "overlap,H100/H200,*,leave-one-source-out,5,2,-0.1,0,0.1\n", "x.csv");
  REQUIRE(with_row.rows.size() == 1);
  CHECK(find_band(with_row, model("overlap"), "H100/H200", "*").status == Band::Status::bound);
  model("calibrated");  // loaded, as a run loads the plugins it names
  model("measured");
  try {
    check_band_models(with_row, registry());
    FAIL("a row of a bound model was accepted");
  } catch (const InputErrors& e) {
    REQUIRE(e.diagnostics().size() == 1);
    CHECK(e.diagnostics()[0].format() ==
          "x.csv:3:1: error: latency_model: expected calibrated or measured, found 'overlap' (overlap is a "
          "bound: its predictions carry no band)");
  }
  // A model no loaded plugin has (an out-of-tree one) keeps its rows; the shipped table passes.
  CHECK_NOTHROW(check_band_models(
      parse_band_table(
          std::string("# c\n") + kHeader + "my_model,H100/H200,*,leave-one-source-out,5,2,-0.1,0,0.1\n",
          "x.csv"),
      registry()));
  CHECK_NOTHROW(check_band_models(shipped_band_table(), registry()));
  const nlohmann::json u =
      band_json(find_band(table(), model("calibrated"), "", ""), BandQuantity::throughput, 5);
  CHECK(u["status"] == "uncalibrated");
  CHECK(u["reason"] == "no measurements for this family");
}

TEST_CASE("error bands: a bad band file is located at file:line:column with what was expected", "[bands]") {
  CHECK(parse_error("latency_model,family\n") ==
        "bad.csv:1:1: error: band table header: expected "
        "latency_model,family,framework,fold,rows,sources,p10_ln,p50_ln,p90_ln");
  CHECK(parse_error("# only a comment\n").find("bad.csv:1:1: error: band table: expected the header") == 0);
  const std::string head = std::string("# c\n") + kHeader;
  CHECK(parse_error(head + "calibrated,A100,*,leave-one-source-out,x,2,-0.1,0,0.1\n") ==
        "bad.csv:3:40: error: rows: expected a whole number >= 1, found 'x'");
  CHECK(parse_error(head + "calibrated,A100,*,leave-one-source-out,5,2,-0.1,0,big\n") ==
        "bad.csv:3:51: error: p90_ln: expected ln(predicted/measured), a number in [-5, 5], found 'big'");
  CHECK(parse_error(head + "Over lap,A100,*,leave-one-source-out,5,2,-0.1,0,0.1\n") ==
        "bad.csv:3:1: error: latency_model: expected a latency plugin's name (lower-case letters, digits "
        "and '_'), found 'Over lap'");
  CHECK(parse_error(head + "calibrated,A100,*,leave-one-source-out,5,2,0.2,0,0.1\n") ==
        "bad.csv:3:44: error: expected p10_ln <= p50_ln <= p90_ln");
  CHECK(parse_error(head + "calibrated,A100,*,leave-one-source-out,5,9,-0.1,0,0.1\n") ==
        "bad.csv:3:42: error: sources: expected at most rows (5)");
  CHECK(parse_error(head + "calibrated,A100,*,leave-one-source-out,5\n") ==
        "bad.csv:3:1: error: expected 9 cells "
        "(latency_model,family,framework,fold,rows,sources,p10_ln,p50_ln,p90_ln), found 5");
  CHECK(parse_error(head + "calibrated,A100,*,leave-one-source-out,5,2,-0.1,0,0.1\n" +
                    "calibrated,A100,*,leave-one-source-out,6,2,-0.1,0,0.1\n") ==
        "bad.csv:4:1: error: duplicate row for (calibrated, A100, *, leave-one-source-out): line 3 has it");
  std::string many = head;
  for (std::size_t i = 0; i <= kMaxBandRows; ++i)
    many += "calibrated,F" + std::to_string(i) + ",*,leave-one-source-out,5,2,-0.1,0,0.1\n";
  CHECK(parse_error(many) == "bad.csv:" + std::to_string(3 + kMaxBandRows) +
                                 ":1: error: band table: more than 4096 rows (the limit of a band file)");
  // The first comment line names how the file was made; the shipped file parses.
  CHECK(table().generated_by == "made by hand for the test");
  CHECK_NOTHROW(load_band_table(std::string(TESSERA_SOURCE_DIR) + "/data/error-bands.csv"));
}

TEST_CASE("error bands: a scenario that names no latency model gets calibrated", "[bands]") {
  const Scenario sc = load("llama3.1-70b-serve-4k1k-h100.yaml");  // plugins: names objectives only
  REQUIRE(sc.plugins.latency.size() == 1);
  CHECK(sc.plugins.latency[0].name == "calibrated");
  // The illustrative cube serve scenario names the reference physics.
  CHECK(load("llama3.1-70b-serve-32k2k-cube.yaml").plugins.latency[0].name == "overlap");
}

TEST_CASE("error bands: a machine without a family is uncalibrated and overlap is a bound in the JSON",
          "[bands]") {
  // DGX-B200 has no calibrated machine block, so no family.
  const Scenario b200 = load("qwen3-235b-prefill-16k-b200.yaml");
  const Session sb(b200, registry());
  CHECK(sb.latency_name() == "calibrated");
  CHECK(session_family(sb).empty());
  CHECK(session_serving_stack(sb) == "modern-stack");
  CHECK(session_band(sb).status == Band::Status::uncalibrated);

  const Scenario h100 =
      load("llama3.1-8b-decode-4k-h100.yaml", {"plugins.latency=overlap", "sweep.parallelism.tp=[1, 2]"});
  const Session s(h100, registry());
  const auto strategy = registry().create_search(h100.plugins.search);
  SearchOptions o;
  o.threads = 1;
  const SearchResult r = run_search(s, *strategy, o);
  const nlohmann::json j = search_json(s, r);
  CHECK(j["band"]["status"] == "bound");
  CHECK(j["band"]["reason"] == "overlap is a physical bound, not fitted to measurements");
  CHECK(j["best"]["latency_band"]["status"] == "bound");
  CHECK(j["best"]["throughput_band"]["status"] == "bound");
  CHECK(j["top"][0]["latency_band"]["status"] == "bound");
  std::ostringstream text;
  print_search_text(text, describe_study(s), r, 40, 0);
  CHECK(text.str().find("band       bound (no band): overlap is a physical bound") != std::string::npos);
  CHECK(text.str().find("every latency and throughput above: bound (no band)") != std::string::npos);
}

}  // namespace test_error_bands
