// objective/pes: the PEs a configuration uses, cp·tp·pp·dp.
#include <catch2/catch.hpp>

#include "objective_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("pes: cp times tp times pp times dp", "[objective][pes]") {
  const Session s(with_objective("pes"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == 8);
  Evaluation e2;
  ParallelConfig c;
  c.cp = 2, c.tp = 4, c.dp = 3;
  s.evaluator().evaluate(c, e2);
  REQUIRE(e2.valid);
  CHECK(e2.objectives[1] == 24);
}
