// report.scopes / --scopes on every study end to end (docs/report.md "Both scopes in one page"):
// serve, explore, explain, sensitivity and compare each study both scopes of a shipped scenario;
// the document stays of the scenario's own scope (full) and by_scope holds the attention-only
// study, whose best latency is below the full one's (it leaves out the FFN/MoE, LM head and
// pipeline hops); validate-data says on stderr that scopes do not apply and exits 0.
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "tessera_build_paths.hpp"

#include "shell_run.hpp"

// This file's cases and helpers, apart from the files compiled with it (docs/testing.md "Build time").
namespace test_scopes_cli {

using nlohmann::json;
using tessera::testing::Ran;
using tessera::testing::shell;

namespace {

// tessera STUDY --json - -q, its document.
json study_json(const std::string& study) {
  const Ran r = shell("TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera " + study +
                      " --json - -q 2>/dev/null");
  REQUIRE(r.rc == 0);
  return json::parse(r.out);
}

std::string scenario(const char* name) { return std::string(TESSERA_SOURCE_DIR) + "/scenarios/" + name; }

// The document is of the full scope, by_scope holds the attention scope alone; the best latency
// (`best_of`) under attention alone is below the full one's.
template <class BestOf>
void both_scopes(const json& j, BestOf best_of) {
  CHECK(j["scope"] == "full");
  REQUIRE(j.contains("by_scope"));
  REQUIRE(j["by_scope"].size() == 1);
  REQUIRE(j["by_scope"].contains("attention"));
  const json& a = j["by_scope"]["attention"];
  CHECK(a["scope"] == "attention");
  const double full = best_of(j), attention = best_of(a);
  CHECK(attention > 0);
  CHECK(attention < full);
}

}  // namespace

TEST_CASE("serve studies both scopes and the attention scope's best is faster") {
  const json j =
      study_json("serve " + scenario("llama3.1-70b-serve-4k1k-h100.yaml") + " --scopes full,attention");
  both_scopes(j, [](const json& d) { return d["best"]["tpot_s"].get<double>(); });
  // The same by report.scopes; no scopes: no by_scope, and the document is the same study.
  const json k = study_json("serve " + scenario("llama3.1-70b-serve-4k1k-h100.yaml") +
                            " --set 'report.scopes=[full, attention]'");
  CHECK(k["by_scope"]["attention"]["best"] == j["by_scope"]["attention"]["best"]);
  const json plain = study_json("serve " + scenario("llama3.1-70b-serve-4k1k-h100.yaml"));
  CHECK_FALSE(plain.contains("by_scope"));
  CHECK(plain["best"] == j["best"]);
}

TEST_CASE("explore studies both scopes on a hardware grid and on a serving grid") {
  const json j = study_json("explore " + scenario("llama3.1-70b-hbm-vs-links-explore.yaml") +
                            " --scopes full,attention");
  both_scopes(j, [](const json& d) {
    double best = 1e300;
    for (const json& p : d["points"]) best = std::min(best, p["best"]["latency_s"].get<double>());
    return best;
  });
  CHECK(j["by_scope"]["attention"]["points"].size() == j["points"].size());
  const json s = study_json("explore " + scenario("llama3.1-70b-serve-4k1k-pair-parts-explore.yaml") +
                            " --scopes attention");
  // Throughput: attention alone serves more tokens/s/PE at every point (1 / it is the latency).
  both_scopes(s,
              [](const json& d) { return 1.0 / d["points"][0]["best_tokens_per_s_per_pe"].get<double>(); });
}

TEST_CASE("explain sensitivity and compare study both scopes") {
  const json e = study_json("explain --config tp=8 --scopes full --scopes attention");
  both_scopes(e, [](const json& d) { return d["totals"]["latency_s"].get<double>(); });
  CHECK(e["by_scope"]["attention"]["config"] == e["config"]);  // the same configuration
  const json s = study_json("sensitivity --parallelism --scopes full,attention");
  both_scopes(s, [](const json& d) { return d["best"]["latency_s"].get<double>(); });
  CHECK(s["by_scope"]["attention"]["parallelism"].size() == s["parallelism"].size());
  const json c = study_json("compare " + scenario("llama3.1-70b-compare-latency-models.yaml") +
                            " --scopes full,attention");
  both_scopes(c, [](const json& d) { return d["optima"][0]["latency_s"].get<double>(); });
  CHECK(c["by_scope"]["attention"]["models"] == c["models"]);
}

TEST_CASE("a scope that does not exist exits 2 naming it and validate-data notes that scopes do not apply") {
  const std::string bin = "TESSERA_PLUGIN_PATH= " + std::string(TESSERA_BINARY_DIR) + "/bin/tessera ";
  const Ran bad = shell("{ " + bin + "explain --config tp=8 --scopes full,ffn -q 2>&1 >/dev/null; }");
  CHECK(bad.rc == 2);
  CHECK(bad.out.find("--scopes: ffn: expected full or attention") != std::string::npos);
  const Ran v =
      shell("{ " + bin + "validate-data " + TESSERA_SOURCE_DIR +
            "/data/measurements-h200.csv --latency roofline --summary --scopes full,attention -q 2>&1 "
            ">/dev/null; }");
  CHECK(v.rc == 0);
  CHECK(v.out.find(
            "tessera validate-data: note: --scopes does not apply: measurements are of the full model") !=
        std::string::npos);
  // The studies that now study every scope say nothing about it.
  const Ran serve = shell("{ " + bin + "serve " + scenario("llama3.1-70b-serve-4k1k-h100.yaml") +
                          " --set 'report.scopes=[full,attention]' -q 2>&1 >/dev/null; }");
  CHECK(serve.rc == 0);
  CHECK(serve.out.find("scopes") == std::string::npos);
}

}  // namespace test_scopes_cli
