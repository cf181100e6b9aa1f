// objective/tpot: the serving plugin's TPOT, a decode step's latency, refused in prefill.
#include <catch2/catch.hpp>

#include "objective.hpp"
#include "objective_fixture.hpp"
#include "serving_step_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("tpot: the mean TPOT when serving - the decode step - refused in prefill", "[objective][serving]") {
  ServingStepFixture f;
  const plugins::TpotObjective o;
  CHECK(o.direction() == Direction::minimize);
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()) == 0.025);
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::decode)) == 0.02);
  CHECK_THROWS_WITH(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::prefill)),
                    Catch::Contains("objective/tpot") && Catch::Contains("prefill"));

  const Session s(with_objective("tpot"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == e.totals.latency_s);
  CHECK(e.objectives[1] == e.objectives[0]);  // the latency objective's value in decode
}
