// objective/energy_per_token: the machine's energy block over the step's totals, per token; a
// machine without one is an input error naming the machine.
#include <catch2/catch.hpp>

#include "objective.hpp"
#include "objective_fixture.hpp"
#include "serving_step_fixture.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("energy_per_token: the energy block over the totals per token - an error without one",
          "[objective][energy]") {
  const Session s(with_objective("energy_per_token"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  const EnergySpec& en = s.machine().energy;
  CHECK(e.objectives[1] ==
        Approx((e.totals.flops_all_pes * en.flop + e.totals.hbm_bytes_all_pes * en.hbm_byte +
                e.totals.link_bytes_all_pes * en.link_byte) /
               e.totals.tokens));

  MachineSpec m = s.machine();
  m.energy.present = false;
  const auto no_energy = s.with_machine(m);
  Evaluation e3;
  ParallelConfig c;
  c.tp = 8;
  CHECK_THROWS_AS(no_energy->evaluator().evaluate(c, e3), InputError);
  CHECK_THROWS_WITH(no_energy->evaluator().evaluate(c, e3),
                    Catch::Contains(m.name) && Catch::Contains("energy"));
  // Through the driver the error reaches the caller (the CLI exits 2).
  CHECK_THROWS_AS(search(*no_energy, choice("exhaustive"), 3), InputError);
}

TEST_CASE("energy_per_token: serving - a whole request per output token - prefill included",
          "[objective][energy][serving]") {
  ServingStepFixture f;
  const plugins::EnergyPerTokenObjective o;
  // Prefill of one prompt per replica: (1e15 x 1 pJ + 1e12 x 10 pJ) / 2 replicas = 505 J. Decode:
  // (1 J + 1 J) / 64 tokens = 0.03125 J/tok. OSL 101: (505 + 100 x 0.03125) / 101 = 5.030941 J;
  // static: 100 W x 8 PEs / (2 x 1000 tok/s) = 0.4 J. Total 5.430941 J per output token.
  CHECK(o.evaluate(f.ctx, f.config, f.serving_step()) == Approx(5.430941).epsilon(1e-6));
  // run's decode study: the step's own, (2 J + 100 W x 20 ms x 8 PEs) / 64 tokens.
  CHECK(o.evaluate(f.ctx, f.config, f.run_step(Mode::decode)) == Approx((2 + 100 * 0.02 * 8) / 64.0));
}
