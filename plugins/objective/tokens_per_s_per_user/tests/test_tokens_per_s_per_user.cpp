// objective/tokens_per_s_per_user: 1/TPOT in a serving study, 1/step latency in decode, refused
// in prefill.
#include <catch2/catch.hpp>

#include "objective.hpp"
#include "objective_fixture.hpp"
#include "serving_step_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("tokens_per_s_per_user: 1 over TPOT when serving - 1 over the step in decode",
          "[objective][serving]") {
  ServingStepFixture f;
  const plugins::TokensPerSPerUserObjective o;
  CHECK(o.direction() == Direction::maximize);
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()) == Approx(40.0));          // 1 / 25 ms
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::decode)) == Approx(50.0));  // 1 / 20 ms
  CHECK_THROWS_WITH(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::prefill)),
                    Catch::Contains("prefill"));

  // Through a decode session: the step's own latency.
  const Session s(with_objective("tokens_per_s_per_user"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == Approx(1.0 / e.totals.latency_s));
}
