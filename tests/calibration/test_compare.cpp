// `compare`: tau-b = 1 for a model against itself; the per-stage numbers are the evaluator's
// (what `explain` prints) for every optimum under every model; ranks and winners.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <memory>
#include <string>

#include "analysis/search/compare.hpp"
#include "eval/session.hpp"
#include "host/plugin_registry.hpp"
#include "registry_fixture.hpp"
#include "scenario/scenario_loader.hpp"

using namespace tessera;
using tessera::test::registry;

namespace {

Scenario small_scenario() {
  return load_scenario(std::string(TESSERA_TEST_DIR) + "/fixtures/compare-small.yaml", LoadOptions{});
}

}  // namespace

TEST_CASE("compare: a model compared with itself has tau-b = 1 and the same optimum", "[compare]") {
  Scenario sc = small_scenario();
  sc.plugins.latency = {sc.plugins.latency[0], sc.plugins.latency[0]};  // overlap twice
  Session a(sc, registry(), 0), b(sc, registry(), 1);
  const CompareResult r = compare_models({&a, &b});
  REQUIRE(r.pairs.size() == 1);
  CHECK(r.pairs[0].kendall.tau_b == Approx(1.0));
  CHECK(r.pairs[0].kendall.discordant == 0);
  CHECK(r.pairs[0].same_winner);
  CHECK(r.best[0] == r.best[1]);
  CHECK(r.optima.size() == 1);
  CHECK(r.feasible == r.configs.size());
  CHECK(r.feasible > 10);
}

TEST_CASE("compare: calibrated against itself too (tau-b = 1)", "[compare]") {
  Scenario sc = small_scenario();
  sc.plugins.latency = {sc.plugins.latency[2], sc.plugins.latency[2]};
  Session a(sc, registry(), 0), b(sc, registry(), 1);
  const CompareResult r = compare_models({&a, &b});
  CHECK(r.pairs[0].kendall.tau_b == Approx(1.0));
}

TEST_CASE("compare: per-stage numbers equal the evaluator's (explain) under every model", "[compare]") {
  const Scenario sc = small_scenario();
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<const Session*> ptrs;
  for (std::size_t i = 0; i < sc.plugins.latency.size(); ++i) {
    sessions.push_back(std::make_unique<Session>(sc, registry(), i));
    ptrs.push_back(sessions.back().get());
  }
  const CompareResult r = compare_models(ptrs, CompareOptions{2, {}});
  REQUIRE(r.models.size() == 3);
  CHECK(r.models[2] == "calibrated");
  REQUIRE(!r.optima.empty());
  for (const CompareOptimumView& v : r.optima) {
    const ParallelConfig& c = r.configs[v.config_index];
    for (std::size_t k = 0; k < ptrs.size(); ++k) {
      Evaluation e;
      ptrs[k]->evaluator().evaluate(c, e);  // what `explain` prints for this config
      CHECK(v.latency_s[k] == e.totals.latency_s);
      int matched = 0;
      for (const Stage& s : e.stages) {
        for (const CompareStageRow& row : v.stages) {
          if (row.name != s.name) continue;
          CHECK(row.visible_s[k] == s.visible_s);
          CHECK(row.count[k] == s.count);
          ++matched;
        }
      }
      CHECK(matched == e.stages.size);
      // The stages a model does not have are marked absent (count 0).
      int present = 0;
      for (const CompareStageRow& row : v.stages) present += row.count[k] > 0 ? 1 : 0;
      CHECK(present == e.stages.size);
    }
  }
  // Each model's optimum is rank 1 under itself; ranks under the others are consistent.
  for (std::size_t k = 0; k < r.models.size(); ++k) {
    const double best = r.scores[k][r.best[k]];
    CHECK(rank_of(r.scores[k], best) == 1);
    for (double s : r.scores[k]) CHECK(s >= best);
  }
  for (const ComparePair& p : r.pairs) {
    CHECK(p.kendall.n == r.feasible);
    CHECK(p.kendall.tau_b <= 1.0);
    CHECK(p.kendall.tau_b > 0.0);  // the models broadly agree on this sweep
    if (!p.same_winner) {
      CHECK(!p.differing_knobs.empty());
      CHECK(p.regret_a_under_b >= 0);
      CHECK(p.regret_b_under_a >= 0);
    }
  }
}

TEST_CASE("compare: the same rankings - optima and tau-b on 1 and 3 threads", "[compare]") {
  // The shipped compare scenario: a grid large enough that 3 threads share every model's run.
  const Scenario sc = load_scenario(
      std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-compare-latency-models.yaml", LoadOptions{});
  REQUIRE(sc.plugins.latency.size() >= 2);
  std::vector<std::unique_ptr<Session>> sessions;
  std::vector<const Session*> ptrs;
  for (std::size_t i = 0; i < sc.plugins.latency.size(); ++i) {
    sessions.push_back(std::make_unique<Session>(sc, registry(), i));
    ptrs.push_back(sessions.back().get());
  }
  CompareOptions one, three;
  one.threads = 1;
  three.threads = 3;
  const CompareResult a = compare_models(ptrs, one), b = compare_models(ptrs, three);
  REQUIRE(a.valid > 500);  // 874 valid configurations: every thread gets hundreds
  CHECK(a.feasible == b.feasible);
  CHECK(a.configs == b.configs);
  CHECK(a.scores == b.scores);
  CHECK(a.latency_s == b.latency_s);
  CHECK(a.best == b.best);
  REQUIRE(a.pairs.size() == b.pairs.size());
  for (std::size_t i = 0; i < a.pairs.size(); ++i) {
    CHECK(a.pairs[i].kendall.concordant == b.pairs[i].kendall.concordant);
    CHECK(a.pairs[i].kendall.discordant == b.pairs[i].kendall.discordant);
  }
}

TEST_CASE("compare: rank_of counts strictly better scores (ties share a rank)", "[compare]") {
  const std::vector<double> s = {3, 1, 2, 2, 5};
  CHECK(rank_of(s, 1) == 1);
  CHECK(rank_of(s, 2) == 2);
  CHECK(rank_of(s, 3) == 4);
  CHECK(rank_of(s, 5) == 5);
}
