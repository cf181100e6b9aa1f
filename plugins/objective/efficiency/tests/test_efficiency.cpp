// objective/efficiency: sqrt(compute_util · bw_util) of the totals (docs/physics.md §9).
#include <catch2/catch.hpp>

#include <cmath>
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

TEST_CASE("efficiency: the geometric mean of compute and bandwidth utilisation", "[objective][efficiency]") {
  const Session s(with_objective("efficiency"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == Approx(e.totals.efficiency));
  CHECK(e.objectives[1] == Approx(std::sqrt(e.totals.compute_util * e.totals.bw_util)));
  CHECK(e.objectives[1] > 0);
  CHECK(e.objectives[1] < 1);
}
