// serving/aggregated by hand (docs/physics.md §12.2) against FakeStepTimer's known step times.
#include <catch2/catch.hpp>

#include "chunk_cycle.hpp"
#include "fake_step_timer.hpp"
#include "serving_model.hpp"

using namespace tessera;
using namespace tessera::plugins;
using tessera::test::FakeStepTimer;

namespace {

ServingMetrics run(Mixing mixing, std::int64_t isl, std::int64_t osl, std::int64_t batch, std::int64_t budget,
                   FakeStepTimer& timer, std::int32_t cp = 1) {
  const AggregatedServing model(mixing);
  ParallelConfig c;
  c.cp = cp;
  ServingMetrics m;
  model.evaluate(EvalContext{}, c, ServingRequest{isl, osl}, ServingPoint{batch, budget}, timer, m);
  return m;
}

}  // namespace

TEST_CASE("aggregated mixed: the chunk cycle of ISL 10 OSL 9 at B 3 and budget 6", "[serving][aggregated]") {
  // c = 6 - (3 - 1) = 4; n_c = ceil(10 / 4) = 3 chunks (4 at 0, 4 at 4, 2 at 8 last) beside 2
  // decode tokens at the mean context 10 + 9 / 2 = 14.5: 26, 28, 33 s. Decode step 10 + 3 + 1.45.
  // Decode-only iterations per request (8 - 3 * 2) / 3 = 2/3; cycle 87 + (2/3) 14.45.
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::mixed, 10, 9, 3, 6, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(m.batch == 3);
  CHECK(m.chunk == 4);
  CHECK(m.chunk_iterations == 3);
  CHECK(t.mixed_calls == 3);
  CHECK(t.chunk_calls == 0);
  CHECK(t.prefill_calls == 0);
  CHECK(t.mixed_batch == 2);
  CHECK(t.mixed_context == 14.5);
  CHECK(t.last_decode_context == 14.5);
  const double t_cycle = 87 + 14.45 * 2 / 3;
  CHECK(m.ttft_s == Approx(87));
  CHECK(m.tpot_s == Approx((2 * 87 + 3 * (2.0 / 3) * 14.45) / 8));  // token-weighted: 25.3625
  CHECK(m.tpot_s == Approx(25.3625));
  CHECK(m.tpot_tail_s == Approx(33));  // the last chunk's iteration
  CHECK(m.e2e_s == Approx(87 + 8 * 25.3625));
  CHECK(m.tokens_per_s == Approx(9 / t_cycle));
  CHECK(m.requests_per_s == Approx(1 / t_cycle));
  CHECK(m.prefill_time_share == Approx(87 / t_cycle));
  CHECK(m.kv_tokens_peak == 3 * 19);
  CHECK(m.kv_tokens_mean == 3 * 14.5);
  CHECK(m.kv_fits);
  CHECK(t.kv_batch == 3);
  CHECK(t.kv_context == 19);
  // B = 4: c = 3, n_c = 4, 4 x 3 = 12 > 8 decode tokens: prefill-bound; B = 3 is the largest.
  CHECK(m.max_batch == 3);
}

TEST_CASE("aggregated mixed: prefill-bound past max_batch and nothing timed", "[serving][aggregated]") {
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::mixed, 10, 9, 4, 6, t);
  CHECK(m.infeasible == kPrefillBound);
  CHECK(m.max_batch == 3);
  CHECK(m.chunk == 3);
  CHECK(m.chunk_iterations == 4);
  CHECK(t.mixed_calls + t.decode_calls + t.chunk_calls == 0);
  CHECK(m.kv_tokens_peak == 4 * 19);
  CHECK(m.tpot_s == 0);
  // B = 7: no prefill token fits beside the 6 decode tokens.
  FakeStepTimer t7;
  CHECK(run(Mixing::mixed, 10, 9, 7, 6, t7).infeasible == kNoPrefillRoom);
  // The bound by hand for 4K / 1K, budget 2048: B = 342 gives c = 1707, n_c = 3, 3 x 341 =
  // 1023 <= 1023; B = 343 gives c = 1706, n_c = 3, 3 x 342 = 1026 > 1023.
  CHECK(mixed_max_batch(4096, 1024, 2048) == 342);
  CHECK(mixed_sustainable(342, 4096, 1024, 2048));
  CHECK_FALSE(mixed_sustainable(343, 4096, 1024, 2048));
  // No budget: whole prompts, as many packed per iteration as finish: no bound.
  CHECK(mixed_max_batch(4096, 1024, 0) == 0);
  // Short prompts pack (the rule B ISL / OSL <= budget - B): 128 / 128 at B 129 and
  // budget 8192 needs k = 2 prompts per iteration, 2 x 128 + 127 = 383 tokens.
  CHECK(mixed_sustainable(129, 128, 128, 8192));
  CHECK(mixed_max_batch(128, 128, 8192) > 128);
}

TEST_CASE("aggregated mixed: B 1 prefills alone in chunks of the whole budget", "[serving][aggregated]") {
  // c = 6: chunks 6 at 0 (21 s) and 4 at 6 last (15 + 4 + 3 + 5 = 27 s); nothing decodes beside
  // them, so the tail is the decode step 10 + 1 + 1.45 and TPOT equals it.
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::mixed, 10, 9, 1, 6, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(t.mixed_calls == 0);
  CHECK(t.chunk_calls == 2);
  CHECK(m.chunk == 6);
  CHECK(m.ttft_s == Approx(48));
  CHECK(m.tpot_s == Approx(12.45));
  CHECK(m.tpot_tail_s == Approx(12.45));
  CHECK(m.tokens_per_s == Approx(9 / (48 + 8 * 12.45)));
  CHECK(m.max_batch == 3);
}

TEST_CASE("aggregated mixed: no budget is one whole-prompt chunk per request", "[serving][aggregated]") {
  // 10 tokens at 0, last, beside 2 decode tokens: 20 + 2 + 10 + 5 = 37 s.
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::mixed, 10, 9, 3, 0, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(m.chunk == 0);
  CHECK(m.chunk_iterations == 1);
  CHECK(m.max_batch == 0);  // no budget: whole prompts pack, no bound
  CHECK(m.ttft_s == Approx(37));
  const double t_cycle = 37 + (8.0 - 2) / 3 * 14.45;
  CHECK(m.tpot_s == Approx((3 * t_cycle - 37) / 8));
  CHECK(m.tpot_tail_s == Approx(37));
}

TEST_CASE("aggregated alternating: prefill-only iterations stall decode", "[serving][aggregated]") {
  // Chunks of the whole budget, alone: 6 at 0 (21 s) and 4 at 6 last (27 s): TTFT 48 s. The
  // decode-only iterations carry all 8 decode tokens of a request: 8 / 3 per request; the B - 1 = 2
  // other sequences wait out each prompt: TPOT = 14.45 + 2 x 48 / 8; tail = 14.45 + 48.
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::alternating, 10, 9, 3, 6, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(t.mixed_calls == 0);
  CHECK(t.chunk_calls == 2);
  CHECK(m.chunk == 6);
  CHECK(m.chunk_iterations == 2);
  const double t_cycle = 48 + 8.0 / 3 * 14.45;
  CHECK(m.ttft_s == Approx(48));
  CHECK(m.tpot_s == Approx(26.45));
  CHECK(m.tpot_tail_s == Approx(62.45));
  CHECK(m.e2e_s == Approx(48 + 8 * 26.45));
  CHECK(m.tokens_per_s == Approx(9 / t_cycle));
  CHECK(m.prefill_time_share == Approx(48 / t_cycle));
  CHECK(m.max_batch == 6);  // a decode iteration of B tokens within the budget
  FakeStepTimer t7;
  CHECK(run(Mixing::alternating, 10, 9, 7, 6, t7).infeasible == kBatchOverBudget);
}

TEST_CASE("aggregated alternating: more sequences than output tokens stack stalls", "[serving][aggregated]") {
  // ISL 10, OSL 3, B 5, no budget: one whole-prompt iteration 15 + 10 + 5 = 30 s; decode
  // 10 + 5 + 11.5 / 10 = 16.15 s, 2 / 5 decode iterations per request. ceil(4 / 2) = 2 prompts
  // complete before each decode iteration: tail = 16.15 + 2 x 30 = the mean 16.15 + 4 x 30 / 2.
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::alternating, 10, 3, 5, 0, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(m.max_batch == 0);
  CHECK(m.chunk == 0);
  CHECK(m.ttft_s == Approx(30));
  CHECK(m.tpot_s == Approx(76.15));
  CHECK(m.tpot_tail_s == Approx(76.15));
  CHECK(m.tokens_per_s == Approx(3 / (30 + 0.4 * 16.15)));
}

TEST_CASE("aggregated: KV fit is the conservative B x (ISL + OSL) rule", "[serving][aggregated]") {
  FakeStepTimer t;
  t.capacity = 3 * 19;  // exactly B (ISL + OSL)
  CHECK(run(Mixing::mixed, 10, 9, 3, 6, t).kv_fits);
  FakeStepTimer u;
  u.capacity = 3 * 19 - 1;
  const ServingMetrics m = run(Mixing::mixed, 10, 9, 3, 6, u);
  CHECK_FALSE(m.kv_fits);
  CHECK(m.infeasible == nullptr);  // the host reports the overflow (ServingVerdict::kv_overflow)
  CHECK(m.kv_tokens_mean == Approx(43.5));
}

TEST_CASE("aggregated: mixed iterations need cp 1 and a request needs tokens", "[serving][aggregated]") {
  FakeStepTimer t;
  CHECK(run(Mixing::mixed, 10, 9, 3, 6, t, 2).infeasible == kMixedNeedsCp1);
  CHECK(t.decode_calls == 0);
  FakeStepTimer u;  // B = 1 has no mixed iteration; alternating times cp > 1 as run does
  CHECK(run(Mixing::mixed, 10, 9, 1, 6, u, 2).infeasible == nullptr);
  CHECK(run(Mixing::alternating, 10, 9, 3, 6, u, 2).infeasible == nullptr);
  FakeStepTimer v;
  CHECK(run(Mixing::mixed, 10, 0, 3, 6, v).infeasible == kEmptyRequest);
  CHECK(run(Mixing::mixed, 0, 9, 3, 6, v).infeasible == kEmptyRequest);
  CHECK_FALSE(run(Mixing::alternating, 0, 9, 3, 6, v).kv_fits);
}

TEST_CASE("aggregated: one output token has no TPOT", "[serving][aggregated]") {
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::mixed, 10, 1, 1, 6, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(m.ttft_s == Approx(48));
  CHECK(m.tpot_s == 0);
  CHECK(m.tpot_tail_s == 0);
  CHECK(m.e2e_s == Approx(48));
  CHECK(m.tokens_per_s == Approx(1.0 / 48));
  FakeStepTimer u;  // a second sequence would need a decode token the request does not have
  CHECK(run(Mixing::mixed, 10, 1, 2, 6, u).infeasible == kPrefillBound);
}

TEST_CASE("aggregated: over a grid the tail bounds TPOT and max_batch is the feasibility edge",
          "[serving][aggregated]") {
  int feasible = 0;
  for (const Mixing mixing : {Mixing::mixed, Mixing::alternating})
    for (const std::int64_t isl : {1, 7, 100, 1000})
      for (const std::int64_t osl : {1, 2, 9, 64})
        for (const std::int64_t budget : {0, 8, 64, 300})
          for (std::int64_t batch = 1; batch <= 80; batch += 3) {
            FakeStepTimer t;
            const ServingMetrics m = run(mixing, isl, osl, batch, budget, t);
            INFO("isl " << isl << " osl " << osl << " budget " << budget << " B " << batch);
            // Feasible exactly up to max_batch (when there is a bound).
            if (m.max_batch > 0) CHECK((m.infeasible == nullptr) == (batch <= m.max_batch));
            if (m.infeasible != nullptr) continue;
            ++feasible;
            CHECK(m.tpot_tail_s >= m.tpot_s * (1 - 1e-12));
            CHECK(m.ttft_s > 0);
            CHECK(m.e2e_s == Approx(m.ttft_s + static_cast<double>(osl - 1) * m.tpot_s));
            CHECK(m.tokens_per_s == Approx(static_cast<double>(osl) * m.requests_per_s));
            CHECK(m.prefill_time_share > 0);
            CHECK(m.prefill_time_share <= 1 + 1e-12);
            if (osl > 1) {
              // Never faster than the decode-only step the same B sequences take.
              const double t_dec = 10.0 + static_cast<double>(batch) + (isl + osl / 2.0) / 10;
              CHECK(m.tpot_s >= t_dec * (1 - 1e-12));
            }
          }
  CHECK(feasible > 500);
}

TEST_CASE("aggregated mixed: short prompts pack ceil of B over OSL per iteration", "[serving][aggregated]") {
  // ISL 3, OSL 2, B 4, budget 10: c = 10 - 3 = 7 >= 3, so whole prompts; k = ceil(4 / 2) = 2 of
  // them per iteration beside 4 - 2 = 2 decode tokens: 2 x 3 + 2 = 8 <= 10 tokens. The packed
  // iteration takes 20 + 2 + 2 x 3 + 5 = 33 s; the cycle of 2 requests needs 2 x 1 decode tokens,
  // both in it, so no decode-only iteration: t_cycle = TTFT = 33 s; TPOT = (4 x 33 - 2 x 33) /
  // (2 x 1) = 33 s; 4 output tokens per cycle.
  FakeStepTimer t;
  const ServingMetrics m = run(Mixing::mixed, 3, 2, 4, 10, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(t.mixed_calls == 1);
  CHECK(t.mixed_prompts == 2);
  CHECK(t.mixed_batch == 2);
  CHECK(m.chunk == 3);
  CHECK(m.chunk_iterations == 1);
  CHECK(m.ttft_s == Approx(33));
  CHECK(m.tpot_s == Approx(33));
  CHECK(m.tpot_tail_s == Approx(33));
  CHECK(m.tokens_per_s == Approx(4.0 / 33));
  CHECK(m.requests_per_s == Approx(2.0 / 33));
  // B 5 needs k = 3: 3 x 3 + 2 = 11 > 10: prefill-bound; 4 is the largest.
  CHECK(m.max_batch == 4);
  FakeStepTimer u;
  CHECK(run(Mixing::mixed, 3, 2, 5, 10, u).infeasible == kPrefillBound);
}

TEST_CASE("aggregated: decode-only iterations keep a pipeline full", "[serving][aggregated]") {
  // B 1, budget 6 (the case above): TTFT 48 s; every decode token now a decode_iteration, half the
  // decode step (a pipeline of 2 kept full): TPOT = 12.45 / 2.
  FakeStepTimer t;
  t.pipeline = 2;
  const ServingMetrics m = run(Mixing::mixed, 10, 9, 1, 6, t);
  REQUIRE(m.infeasible == nullptr);
  CHECK(t.iteration_calls == 1);
  CHECK(t.decode_calls == 0);
  CHECK(m.ttft_s == Approx(48));
  CHECK(m.tpot_s == Approx(12.45 / 2));
}
