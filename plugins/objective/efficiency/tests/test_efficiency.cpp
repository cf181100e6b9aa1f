// objective/efficiency: sqrt(compute_util · bw_util) of the totals (docs/physics.md §9).
#include <catch2/catch.hpp>

#include <cmath>
#include "objective_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("efficiency: the geometric mean of compute and bandwidth utilisation", "[objective][efficiency]") {
  const Session s(with_objective("efficiency"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == Approx(e.totals.efficiency));
  CHECK(e.objectives[1] == Approx(std::sqrt(e.totals.compute_util * e.totals.bw_util)));
  CHECK(e.objectives[1] > 0);
  CHECK(e.objectives[1] < 1);
}
