// objective/energy_per_token: the machine's energy block over the step's totals, per token; a
// machine without one is an input error naming the machine.
#include <catch2/catch.hpp>

#include "objective_fixture.hpp"
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
