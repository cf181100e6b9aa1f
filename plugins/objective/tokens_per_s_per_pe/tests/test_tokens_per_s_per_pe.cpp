// objective/tokens_per_s_per_pe: all replicas' output tokens/s over the PEs; refused in prefill.
#include <catch2/catch.hpp>

#include "objective.hpp"
#include "objective_fixture.hpp"
#include "serving_step_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("tokens_per_s_per_pe: dp times the replica rate over the PEs", "[objective][serving]") {
  ServingStepFixture f;
  const plugins::TokensPerSPerPeObjective o;
  CHECK(o.direction() == Direction::maximize);
  // 2 replicas x 1000 tok/s / 8 PEs.
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()) == Approx(250.0));
  // Decode: the step's throughput over the PEs (3200 tok/s / 8).
  f.decode.throughput_tok_s = 3200;
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::decode)) == Approx(400.0));
  f.decode.pipeline_throughput_tok_s = 4800;  // pipeline-full, when reported
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::decode)) == Approx(600.0));
  CHECK_THROWS_WITH(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::prefill)),
                    Catch::Contains("prefill"));

  const Session s(with_objective("tokens_per_s_per_pe"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == Approx(1.0 / e.totals.latency_s / 8));  // batch 1, dp 1, 8 PEs
}
