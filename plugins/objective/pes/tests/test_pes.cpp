// objective/pes: the PEs a configuration uses, cp·tp·pp·dp.
#include <catch2/catch.hpp>

#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// Llama-3.1-70B decode 128K on the cube machine at tp = 8, ranked by latency, then this objective.
Evaluation evaluate_tp8(const Session& s) {
  Evaluation e;
  ParallelConfig c;
  c.tp = 8;
  s.evaluator().evaluate(c, e);
  return e;
}

Scenario with_objective(const char* name) {
  Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  sc.plugins.objectives = {choice("latency"), choice(name)};
  return sc;
}

}  // namespace

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
