// objective/throughput: the step's throughput (docs/physics.md §8), tokens/s.
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

TEST_CASE("throughput: the totals' tokens per second", "[objective][throughput]") {
  const Session s(with_objective("throughput"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.totals.throughput_tok_s > 0);
  CHECK(e.objectives[1] == Approx(e.totals.throughput_tok_s));
  // Decode, dp = 1, batch 1: one token per step.
  CHECK(e.objectives[1] == Approx(1.0 / e.totals.latency_s));
}
