// Search plugins against the driver (two_stage against exhaustive: test_two_stage_exact.cpp):
// random is seeded, the driver is thread-count independent, scope attention.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>

#include "search_fixture.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("random: the same seed gives the same sample - different seeds differ", "[search][random]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  Session s(sc, registry());
  const auto a = search(s, choice("random", {{"samples", "300"}, {"seed", "7"}}), 1);
  const auto b = search(s, choice("random", {{"samples", "300"}, {"seed", "7"}}), 3);
  const auto c = search(s, choice("random", {{"samples", "300"}, {"seed", "8"}}), 2);
  REQUIRE(a.counts.evaluated == 300);
  REQUIRE(b.counts.evaluated == 300);
  bool same = true, differ = false;
  for (std::size_t i = 0; i < 300; ++i) {
    same = same && a.records[i].config == b.records[i].config &&
           a.records[i].latency_s == b.records[i].latency_s;
    differ = differ || !(a.records[i].config == c.records[i].config);
  }
  CHECK(same);
  CHECK(differ);
  // More samples than configs: every config once.
  const auto all = search(s, choice("random", {{"samples", "1000000"}}));
  CHECK(all.counts.evaluated == all.counts.valid);
}

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

TEST_CASE("objectives: cost scales with PEs and hardware - energy_per_token needs an energy block",
          "[objective]") {
  Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  sc.plugins.objectives = {choice("latency"),    choice("cost"), choice("energy_per_token"),
                           choice("throughput"), choice("pes"),  choice("efficiency")};
  Session s(sc, registry());
  Evaluation e;
  ParallelConfig c;
  c.tp = 8;
  s.evaluator().evaluate(c, e);
  REQUIRE(e.valid);
  const double per_pe = 2000 + 8 * s.context().gemm_peak / 1e12 + 2500 * s.machine().pe.hbm_bandwidth / 1e12 +
                        40 * s.machine().pe.hbm_capacity / 1e9 + 10 * s.machine().levels[0].link_bw / 1e9;
  CHECK(e.objectives[1] == Approx(8 * per_pe));
  const EnergySpec& en = s.machine().energy;
  CHECK(e.objectives[2] ==
        Approx((e.totals.flops_all_pes * en.flop + e.totals.hbm_bytes_all_pes * en.hbm_byte +
                e.totals.link_bytes_all_pes * en.link_byte) /
               e.totals.tokens));
  CHECK(e.objectives[3] == Approx(e.totals.throughput_tok_s));
  CHECK(e.objectives[4] == 8);
  CHECK(e.objectives[5] == Approx(e.totals.efficiency));

  MachineSpec m = s.machine();
  m.pe.hbm_bandwidth *= 2;
  const auto faster = s.with_machine(m);
  Evaluation e2;
  faster->evaluator().evaluate(c, e2);
  CHECK(e2.objectives[1] > e.objectives[1]);

  m.energy.present = false;
  const auto no_energy = s.with_machine(m);
  Evaluation e3;
  CHECK_THROWS_AS(no_energy->evaluator().evaluate(c, e3), InputError);
  CHECK_THROWS_WITH(no_energy->evaluator().evaluate(c, e3),
                    Catch::Contains(m.name) && Catch::Contains("energy"));
  // Through the driver the error reaches the caller (the CLI exits 2).
  CHECK_THROWS_AS(search(*no_energy, choice("exhaustive"), 3), InputError);
}
