// The search driver: thread-count independent, scope attention. The search and objective plugins'
// own tests are beside them (plugins/<kind>/<name>/tests/, docs/testing.md).
#include <catch2/catch.hpp>

#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("the driver's output does not depend on the thread count", "[search][driver]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  Session s(sc, registry());
  const auto one = search(s, choice("exhaustive"), 1);
  const auto many = search(s, choice("exhaustive"), 5);
  REQUIRE(one.records.size() == many.records.size());
  for (std::size_t i = 0; i < one.records.size(); ++i) {
    REQUIRE(one.records[i].config == many.records[i].config);
    REQUIRE(one.records[i].score == many.records[i].score);
  }
  CHECK(one.best == many.best);
  CHECK(one.pareto == many.pareto);
  CHECK(one.top == many.top);
  CHECK(one.counts.enumerated == 8u * 6 * 5 * 3 * 48);
  // Best: lowest score among feasible, then fewer PEs.
  const auto& b = one.records[*one.best];
  for (const auto& r : one.records)
    if (r.feasible) CHECK((r.score > b.score || (r.score == b.score && r.pes >= b.pes)));
  // Infeasible records say why.
  for (const auto& r : one.records)
    if (!r.feasible) CHECK(r.reason.find("exceed the per-PE budget") != std::string::npos);
}

TEST_CASE("Llama-3.1-70B decode 128K on the cube machine: attention-only is faster than full",
          "[search][scope]") {
  const Scenario full = load("llama3.1-70b-decode-128k.yaml");
  const Scenario attn = load("llama3.1-70b-decode-128k.yaml", {"scope=attention"});
  REQUIRE(attn.workload.scope == Scope::attention);
  Session sf(full, registry());
  Session sa(attn, registry());
  const auto rf = search(sf, choice("exhaustive"));
  const auto ra = search(sa, choice("exhaustive"));
  REQUIRE(rf.best);
  REQUIRE(ra.best);
  CHECK(ra.records[*ra.best].latency_s < rf.records[*rf.best].latency_s);
  // Memory feasibility is unchanged by the scope.
  CHECK(ra.counts.feasible == rf.counts.feasible);
}
