// search/random: seeded, reproducible whatever the thread count, every configuration once when
// the samples outnumber them.
#include <catch2/catch.hpp>

#include "search_fixture.hpp"

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
