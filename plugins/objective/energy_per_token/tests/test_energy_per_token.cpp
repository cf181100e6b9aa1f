// objective/energy_per_token: the machine's energy block over the step's totals, per token; a
// machine without one is an input error naming the machine.
#include <catch2/catch.hpp>

#include "eval/serving_evaluator.hpp"
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
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.serving_step()) == Approx(5.430941).epsilon(1e-6));
  // run's decode study: the step's own, (2 J + 100 W x 20 ms x 8 PEs) / 64 tokens.
  CHECK(o.evaluate(f.ctx, f.workload, f.config, f.run_step(Mode::decode)) ==
        Approx((2 + 100 * 0.02 * 8) / 64.0));
}

TEST_CASE("energy_per_token: a serving session - the prefill of one prompt and the decode step",
          "[objective][energy][serving]") {
  // Llama-3.1-70B on the cube machine served by serving/static at B = 4, ISL 1024, OSL 64, tp = 8,
  // pp = 2 (16 PEs: the weights of tp = 8 alone do not fit beside the KV).
  Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  sc.workload.mode = Mode::serve;
  sc.workload.context = sc.workload.input = 1024;
  sc.workload.output = 64;
  sc.workload.batch = 1;
  sc.plugins.serving = choice("static");
  sc.plugins.objectives = {choice("energy_per_token"), choice("tokens_per_s_per_pe")};
  const Session s(sc, registry());
  const ServingEvaluator ev(s, ServingSlo{});
  ServingEvaluation out;
  ParallelConfig c;
  c.tp = 8;
  c.pp = 2;
  ev.evaluate(c, ServingPoint{.batch = 4, .token_budget = 0}, out);
  INFO(serving_reason(s, out));
  REQUIRE(out.runnable);
  // The prefill the host handed the objective is `run`'s prefill of one 1024-token prompt.
  Scenario pre = load("llama3.1-70b-decode-128k.yaml");
  pre.workload.mode = Mode::prefill;
  pre.workload.context = 1024;
  pre.workload.batch = 1;
  pre.workload.chunk = 0;
  const Session ps(pre, registry());
  Evaluation pe;
  ps.evaluator().evaluate(c, pe);
  REQUIRE(pe.valid);
  CHECK(out.prefill.flops_all_pes == Approx(pe.totals.flops_all_pes).epsilon(1e-12));
  CHECK(out.prefill.hbm_bytes_all_pes == Approx(pe.totals.hbm_bytes_all_pes).epsilon(1e-12));
  const EnergySpec& en = s.machine().energy;  // static_power 0 on the cube machine
  auto dynamic = [&](const StepTotals& t) {
    return t.flops_all_pes * en.flop + t.hbm_bytes_all_pes * en.hbm_byte +
           t.link_bytes_all_pes * en.link_byte;
  };
  const double expected = (dynamic(pe.totals) + 63 * dynamic(out.step.totals) / 4) / 64;
  CHECK(out.objectives[0] == Approx(expected).epsilon(1e-12));
  // The whole request costs more per output token than the decode step alone.
  CHECK(out.objectives[0] > dynamic(out.step.totals) / 4);
  // tokens_per_s_per_pe: 4 x 64 / E2E over 16 PEs.
  CHECK(out.objectives[1] == Approx(4 * 64 / out.metrics.e2e_s / 16).epsilon(1e-12));
}
