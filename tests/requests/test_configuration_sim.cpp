// A configuration simulated through the host (analysis/capacity/configuration_sim.hpp) on
// Llama-3.1-70B 4K/1K, TP8 H100: at low load a TTFT is the prefill time; saturated by a closed loop
// at the serving point's batch, the throughput is the steady-state `aggregated` figure within 5 %
// (docs/physics.md §12.5); the replica KV comes from the memory plugin or the engine rule.
#include <catch2/catch.hpp>

#include "analysis/capacity/configuration_sim.hpp"
#include "eval/host_step_timer.hpp"
#include "eval/serving_evaluator.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::requests;

namespace {

// The suite's serving scenario (Llama-3.1-70B 4K/1K on H100) under continuous batching.
Scenario serve_70b() {
  Scenario s = test::serve_scenario();
  s.plugins.serving = test::choice("aggregated");
  return s;
}

ParallelConfig tp8() {
  ParallelConfig c;
  c.tp = 8;
  return c;
}

}  // namespace

TEST_CASE("at low load a simulated TTFT is the configuration's prefill time") {
  const Scenario sc = serve_70b();
  const Session session(sc, test::registry());
  RequestsSpec spec;
  spec.given = true;
  spec.stream.arrival.kind = ArrivalKind::constant;
  spec.stream.arrival.rate_per_s = 0.01;  // one request every 100 s
  spec.stream.requests = 5;
  spec.stream.warmup = 0;
  spec.stream.input.value = 4096;
  spec.stream.output.value = 16;
  SimOptions o;
  o.exact = true;
  const SimResult r = simulate_configuration(session, tp8(), ServingPoint{8, 0}, spec, o);
  const ParallelConfig c = tp8();  // the timer holds it: it must outlive the timer
  Evaluation holder, scratch;
  session.evaluator().layout_for(c, holder);
  HostStepTimer timer(session.evaluator(), c, holder.layout, scratch);
  const double prefill = timer.prefill_chunk(4096, 0, true);
  CHECK(r.ttft.max == Approx(prefill).epsilon(0.005));
  CHECK(r.ttft.percentile[0] == Approx(prefill).epsilon(0.005));
  CHECK(r.queue.max == 0);
  // Then 15 decode steps of one sequence each.
  CHECK(r.tpot.mean == Approx(timer.decode_step(1, 4096 + 8)).epsilon(0.01));
}

TEST_CASE("a saturated configuration carries the steady-state aggregated throughput within 5 percent") {
  const Scenario sc = serve_70b();
  const Session session(sc, test::registry());
  const ServingEvaluator serving(session, sc.serving.slo);
  for (const ServingPoint point : {ServingPoint{16, 2048}, ServingPoint{64, 8192}}) {
    ServingEvaluation steady;
    serving.evaluate(tp8(), point, steady);
    REQUIRE(steady.metrics.tokens_per_s > 0);
    RequestsSpec spec;
    spec.given = true;
    spec.stream.arrival.kind = ArrivalKind::concurrency;
    spec.stream.arrival.concurrency = point.batch;  // one replica kept full
    spec.stream.requests = static_cast<std::uint64_t>(point.batch) * 12;
    spec.stream.warmup = static_cast<std::uint64_t>(point.batch) * 2;
    spec.stream.input.value = 4096;
    spec.stream.output.value = 1024;
    const SimResult r = simulate_configuration(session, tp8(), point, spec);
    INFO("B " << point.batch << ", budget " << point.token_budget << ": simulated " << r.output_tokens_per_s
              << " tok/s, aggregated " << steady.metrics.tokens_per_s << " tok/s");
    CHECK(r.preemptions == 0);
    CHECK(r.output_tokens_per_s == Approx(steady.metrics.tokens_per_s).epsilon(0.05));
  }
}

TEST_CASE("replica KV - the memory plugin's largest fit in whole blocks") {
  const Scenario sc = serve_70b();
  const Session session(sc, test::registry());
  const ParallelConfig c = tp8();  // the timer holds it: it must outlive the timer
  Evaluation holder, scratch;
  session.evaluator().layout_for(c, holder);
  HostStepTimer timer(session.evaluator(), c, holder.layout, scratch);
  const ReplicaKv kv = replica_kv(session.evaluator(), c, holder.layout, timer, 8192, 64);
  CHECK_FALSE(kv.engine_rule);
  CHECK(kv.block_tokens == 16);
  const std::int64_t tokens = kv.blocks * kv.block_tokens;
  CHECK(timer.kv_fits(1, tokens));
  CHECK_FALSE(timer.kv_fits(1, tokens + kv.block_tokens));
  // 70B BF16 on 8 x 80 GB: about 1.3 million KV tokens (320 kB per token over 8 GPUs).
  CHECK(tokens > 1'000'000);
  CHECK(tokens < 1'600'000);
}
