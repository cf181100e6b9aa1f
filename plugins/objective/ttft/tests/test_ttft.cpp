// objective/ttft: the serving plugin's TTFT, a prefill's latency, refused in decode.
#include <catch2/catch.hpp>

#include "objective.hpp"
#include "objective_fixture.hpp"
#include "serving_step_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("ttft: the mean TTFT when serving - the prefill latency - refused in decode",
          "[objective][serving]") {
  ServingStepFixture f;
  const plugins::TtftObjective o;
  CHECK(o.direction() == Direction::minimize);
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()) == 0.4);
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::prefill)) == 0.02);
  CHECK_THROWS_AS(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::decode)), InputError);

  Scenario sc = load("llama3.1-8b-prefill-8k-h100.yaml");
  sc.plugins.objectives = {choice("latency"), choice("ttft")};
  const Session s(sc, registry());
  Evaluation e;
  ParallelConfig c;
  c.tp = 8;
  s.evaluator().evaluate(c, e);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == e.totals.latency_s);

  const Session d(with_objective("ttft"), registry());
  CHECK_THROWS_WITH(evaluate_tp8(d), Catch::Contains("objective/ttft") && Catch::Contains("decode"));
}
