// objective/cost_per_mtok: capital over lifetime and utilisation plus electricity, per million
// output tokens, from the machine's price block (docs/physics.md §9 "Price").
#include <catch2/catch.hpp>

#include "objective.hpp"
#include "objective_fixture.hpp"
#include "serving_step_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("cost_per_mtok: capital and power from the price block - hand computed", "[objective][cost]") {
  ServingStepFixture f;
  const plugins::CostPerMtokObjective o{ParametricPeCost{}};
  CHECK(o.direction() == Direction::minimize);
  f.machine.price.pe = 30000;
  f.machine.price.lifetime_years = 4;
  f.machine.price.power = 1000;
  f.machine.price.electricity_per_kwh = 0.10;
  f.machine.price.utilization = 0.5;
  // R = 2 replicas x 1000 tok/s. Capital: 30000 USD x 8 / (4 x 31557600 s x 0.5 x 2000 tok/s)
  // = 1.901285e-6 USD/tok; electricity: 1000 W x 8 / 2000 tok/s = 4 J/tok x 0.10 / 3.6e6
  // = 1.11111e-7 USD/tok. Per million: 2.012396 USD.
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()) == Approx(2.012396).epsilon(1e-6));
  // Decode: the step's throughput is the rate (3200 tok/s here): 1.1883033 + 0.0694444.
  f.decode.throughput_tok_s = 3200;
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::decode)) == Approx(1.2577477).epsilon(1e-6));
  CHECK_THROWS_WITH(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::prefill)),
                    Catch::Contains("prefill"));
}

TEST_CASE("cost_per_mtok: without price.pe and price.power - the parametric capital and the energy block",
          "[objective][cost]") {
  ServingStepFixture f;
  const plugins::CostPerMtokObjective o{ParametricPeCost{}};
  // Capital: 2000 + 8 x 989 + 2500 x 3.35 + 40 x 80 + 10 x 450 = 25987 USD per PE over 4 years at
  // full utilisation: 25987 x 8 / (126230400 s x 2000 tok/s) = 8.234783e-7 USD/tok. Energy: 5.430941
  // J/tok (test_energy_per_token's hand value) x 0.08 / 3.6e6 = 1.206876e-7 USD/tok.
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()) == Approx(0.9441659).epsilon(1e-6));
  f.machine.energy.present = false;
  CHECK_THROWS_WITH(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()),
                    Catch::Contains("hand") && Catch::Contains("price.power"));

  // Through a decode session on the cube machine: the same formula over the step's throughput.
  const Session s(with_objective("cost_per_mtok"), registry());
  const Evaluation e = evaluate_tp8(s);
  REQUIRE(e.valid);
  const double per_pe = 2000 + 8 * s.context().gemm_peak / 1e12 + 2500 * s.machine().pe.hbm_bandwidth / 1e12 +
                        40 * s.machine().pe.hbm_capacity / 1e9 + 10 * s.machine().levels[0].link_bw / 1e9;
  const EnergySpec& en = s.machine().energy;
  const double joules = (e.totals.flops_all_pes * en.flop + e.totals.hbm_bytes_all_pes * en.hbm_byte +
                         e.totals.link_bytes_all_pes * en.link_byte) /
                        e.totals.tokens;
  const double rate = e.totals.throughput_tok_s;
  CHECK(e.objectives[1] == Approx(1e6 * (8 * per_pe / (4 * 365.25 * 86400 * rate) + joules * 0.08 / 3.6e6)));
}
