// serving/aggregated with a cached prefix (ServingRequest::cached, docs/physics.md §12.7): the
// chunks cover the prompt after it, against FakeStepTimer's known step times.
#include <catch2/catch.hpp>

#include "fake_step_timer.hpp"
#include "serving_model.hpp"

using namespace tessera;
using namespace tessera::plugins;
using tessera::test::FakeStepTimer;

namespace {

ServingMetrics cached_run(Mixing mixing, std::int64_t isl, std::int64_t cached, FakeStepTimer& timer,
                          std::int64_t budget = 6) {
  const AggregatedServing model(mixing);
  ServingMetrics m;
  model.evaluate(EvalContext{}, ParallelConfig{}, ServingRequest{isl, 9, cached}, ServingPoint{3, budget},
                 timer, m);
  return m;
}

}  // namespace

TEST_CASE("aggregated: a cached prefix of 0 is the uncached cycle", "[serving][aggregated]") {
  FakeStepTimer a, b;
  const ServingMetrics m0 = cached_run(Mixing::mixed, 10, 0, a);
  const AggregatedServing model(Mixing::mixed);
  ServingMetrics m;
  model.evaluate(EvalContext{}, ParallelConfig{}, ServingRequest{10, 9}, ServingPoint{3, 6}, b, m);
  CHECK(m0.ttft_s == m.ttft_s);
  CHECK(m0.tpot_s == m.tpot_s);
  CHECK(m0.ttft_s == Approx(87));  // test_chunk_cycle.cpp's ISL 10 OSL 9 B 3 budget 6
}

TEST_CASE("aggregated: hit ratio 1 computes the last token after the cached rest", "[serving][aggregated]") {
  // ISL 10, 9 cached (all but the last): one chunk of 1 token after 9, beside 2 decode tokens at
  // context 14.5: 20 + 2 + 1 + 9 / 2 + 5 = 32.5 s. 6 cached: 4 tokens after 6: 20 + 2 + 4 + 3 + 5 = 34.
  FakeStepTimer t;
  CHECK(cached_run(Mixing::mixed, 10, 9, t).ttft_s == Approx(32.5));
  CHECK(t.mixed_context == 14.5);  // the cached tokens are still attended to and held
  CHECK(cached_run(Mixing::mixed, 10, 6, t).ttft_s == Approx(34));
  // More than the prompt holds is clipped to all but its last token.
  CHECK(cached_run(Mixing::mixed, 10, 50, t).ttft_s == Approx(32.5));
}

TEST_CASE("aggregated: the prefill time falls as more of the prompt is cached", "[serving][aggregated]") {
  for (const Mixing mixing : {Mixing::mixed, Mixing::alternating}) {
    double before = 1e300;
    for (std::int64_t cached = 0; cached < 200; cached += 10) {
      FakeStepTimer t;
      const ServingMetrics m = cached_run(mixing, 200, cached, t, 0);
      REQUIRE(m.infeasible == nullptr);
      CHECK(m.ttft_s <= before);
      CHECK(m.kv_tokens_peak == 3 * (200 + 9));  // held in KV all the same
      before = m.ttft_s;
    }
  }
}
