// `explain` lists the memory tiers (docs/physics.md §9 "bw_util with other tiers") when a tier
// other than HBM served bytes, and leaves its output as it was when HBM is the only one.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <sstream>
#include <string>

#include "eval/session.hpp"
#include "registry_fixture.hpp"
#include "report/study_text/explain_report.hpp"
#include "scenario/scenario_loader.hpp"

using namespace tessera;
using tessera::test::registry;

TEST_CASE("explain lists memory tiers only when one other than HBM appears", "[explain][tiers]") {
  const Scenario sc =
      load_scenario(std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-8b-decode-4k-h100.yaml", {});
  Session s(sc, registry(), 0);
  ParallelConfig c;
  c.tp = 8;
  Evaluation e;
  s.evaluator().evaluate(c, e);
  REQUIRE(e.valid);
  REQUIRE(e.totals.tier_count == 1);
  CHECK_FALSE(explain_json(s, e)["totals"].contains("tiers"));
  const StudyDescription d = describe_study(s);
  studies::ExplainResult result;
  result.evaluation = e;
  studies::explain_details(s, result);
  std::ostringstream plain;
  print_explain(plain, d, result);
  CHECK(plain.str().find("memory tiers") == std::string::npos);

  // As a model serving bytes from an SRAM leaves them (the accounting is tests/physics'):
  e.totals.tier_count = 2;
  e.totals.tiers[1] = TierUse{"sram", 4e9, 2e13, 0.25};
  const nlohmann::json j = explain_json(s, e)["totals"]["tiers"];
  REQUIRE(j.size() == 2);
  CHECK(j[0]["name"] == "hbm");
  CHECK(j[0]["bandwidth_B_per_s"].get<double>() == 3.35e12);
  CHECK(j[0]["util"].get<double>() == e.totals.bw_util);
  CHECK(j[1]["name"] == "sram");
  CHECK(j[1]["bytes_all_pes"].get<double>() == 4e9);
  CHECK(j[1]["bandwidth_B_per_s"].get<double>() == 2e13);
  CHECK(j[1]["util"].get<double>() == 0.25);
  result.evaluation = e;
  studies::explain_details(s, result);
  std::ostringstream text;
  print_explain(text, d, result);
  CHECK(text.str().find("memory tiers hbm ") != std::string::npos);
  CHECK(text.str().find("sram 4 GB (25.00 % of ") != std::string::npos);
}
