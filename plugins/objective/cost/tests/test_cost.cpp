// objective/cost: PEs x a parametric price per PE (the plugin's default coefficients), moved by
// the hardware it prices.
#include <catch2/catch.hpp>

#include "objective_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("cost: PEs times the per-PE price - and a hardware sweep moves it", "[objective][cost]") {
  const Session s(with_objective("cost"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  const double per_pe = 2000 + 8 * s.context().gemm_peak / 1e12 + 2500 * s.machine().pe.hbm_bandwidth / 1e12 +
                        40 * s.machine().pe.hbm_capacity / 1e9 + 10 * s.machine().levels[0].link_bw / 1e9;
  CHECK(e.objectives[1] == Approx(8 * per_pe));

  MachineSpec m = s.machine();
  m.pe.hbm_bandwidth *= 2;
  const auto faster = s.with_machine(m);
  const Evaluation e2 = evaluate_tp8(*faster);
  CHECK(e2.objectives[1] == Approx(e.objectives[1] + 8 * 2500 * s.machine().pe.hbm_bandwidth / 1e12));
}

TEST_CASE("cost: machine.price.pe replaces the parametric price", "[objective][cost]") {
  const Session s(with_objective("cost"), registry());
  MachineSpec m = s.machine();
  m.price.pe = 30000;
  const auto priced = s.with_machine(m);
  const Evaluation e = evaluate_tp8(*priced);
  REQUIRE(e.valid);
  CHECK(e.objectives[1] == 8 * 30000.0);
  // A hardware sweep no longer moves it: the price is the machine file's.
  m.pe.hbm_bandwidth *= 2;
  CHECK(evaluate_tp8(*s.with_machine(m)).objectives[1] == 8 * 30000.0);
}
