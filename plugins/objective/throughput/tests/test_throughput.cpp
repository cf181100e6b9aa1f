// objective/throughput: the step's throughput (docs/physics.md §8), tokens/s.
#include <catch2/catch.hpp>

#include "objective_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("throughput: the totals' tokens per second", "[objective][throughput]") {
  const Session s(with_objective("throughput"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.totals.throughput_tok_s > 0);
  CHECK(e.objectives[1] == Approx(e.totals.throughput_tok_s));
  // Decode, dp = 1, batch 1: one token per step.
  CHECK(e.objectives[1] == Approx(1.0 / e.totals.latency_s));
}
