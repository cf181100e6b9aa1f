// The engine of one replica and the event loop (analysis/requests/replica.hpp, request_sim.hpp)
// on hand-computed timelines: continuous batching, chunked prefill, KV admission, preemption by
// recompute, routers, closed loops, goodput, and the same result for the same input.
#include <catch2/catch.hpp>
#include <map>
#include <vector>

#include "analysis/requests/request_sim.hpp"
#include "engine_fixture.hpp"
#include "fake_timer.hpp"

using namespace tessera;
using namespace tessera::requests;
using tessera::test::roomy;
using tessera::test::trace_of;

TEST_CASE("three requests on one replica - every TTFT and TPOT by hand") {
  // r0 at 0 s (100 in, 3 out), r1 at 5 ms (200 in, 2 out), r2 at 1 s (50 in, 1 out).
  // 0-20 ms: r0's prefill (10 + 0.1 x 100 ms); r0's first token at 20 ms.
  // 20-51 ms: r0 decodes beside r1's prefill (10 + 1 + 0.1 x 200 ms); r0's second token, r1's first.
  // 51-63 ms: both decode (10 + 2 ms); r0's third token and r1's second: both finish at 63 ms.
  // 1000-1015 ms: r2's prefill, its only token.
  const StreamSpec s = trace_of({{0, 100, 3, -1}, {0.005, 200, 2, -1}, {1.0, 50, 1, -1}});
  SimResult res;
  const auto o = test::outcomes_by_id(s, roomy(), &res);
  REQUIRE(o.size() == 3);
  CHECK(o.at(0).first_token_s == Approx(0.020));
  CHECK(o.at(0).finish_s == Approx(0.063));
  CHECK(o.at(1).first_scheduled_s == Approx(0.020));
  CHECK(o.at(1).first_token_s == Approx(0.051));
  CHECK(o.at(1).finish_s == Approx(0.063));
  CHECK(o.at(2).finish_s == Approx(1.015));
  CHECK(o.at(0).max_gap_s == Approx(0.031));
  // TTFT 20, 46, 15 ms; TPOT (63 - 20) / 2 = 21.5 and (58 - 46) / 1 = 12 ms; queueing 0, 15, 0 ms.
  CHECK(res.ttft.count == 3);
  CHECK(res.ttft.mean == Approx((0.020 + 0.046 + 0.015) / 3));
  CHECK(res.ttft.percentile[0] == Approx(0.020));  // P50 of 15, 20, 46 ms
  CHECK(res.tpot.count == 2);
  CHECK(res.tpot.mean == Approx((0.0215 + 0.012) / 2));
  CHECK(res.tpot.percentile[2] == Approx(0.012 + 0.99 * (0.0215 - 0.012)));
  CHECK(res.itl.count == 3);  // gaps 31, 12 and 12 ms
  CHECK(res.itl.mean == Approx((0.031 + 0.012 + 0.012) / 3));
  CHECK(res.queue.mean == Approx(0.015 / 3));
  CHECK(res.e2e.percentile[0] == Approx(0.058));
  CHECK(res.window_s == Approx(1.015));
  CHECK(res.output_tokens_per_s == Approx(6 / 1.015));
  CHECK(res.requests_per_s == Approx(3 / 1.015));
  CHECK(res.preemptions == 0);
  CHECK(std::isnan(res.ttft.half_width[0]));  // three requests: no interval
}

TEST_CASE("KV that runs out preempts the newest sequence and it recomputes its tokens") {
  // 5 blocks of 4 tokens. Both prompts (8 tokens, 2 blocks each) prefill together (11.6 ms).
  // r0's first decode needs a third block (1 free): granted; r1's then finds none and preempts
  // itself. r0 decodes alone to its sixth token (5 x 11 ms, to 66.6 ms); r1 is admitted again
  // and recomputes its prompt and first token, 9 tokens (10.9 ms, second token at 77.5 ms),
  // then decodes 4 more (to 121.5 ms).
  const StreamSpec s = trace_of({{0, 8, 6, -1}, {0, 8, 6, -1}});
  SimOptions o = roomy();
  o.limits.kv_blocks = 5;
  o.limits.block_tokens = 4;
  SimResult res;
  const auto out = test::outcomes_by_id(s, o, &res);
  REQUIRE(out.size() == 2);
  CHECK(out.at(0).finish_s == Approx(0.0666));
  CHECK(out.at(0).preemptions == 0);
  CHECK(out.at(1).first_token_s == Approx(0.0116));
  CHECK(out.at(1).preemptions == 1);
  CHECK(out.at(1).max_gap_s == Approx(0.0775 - 0.0116));
  CHECK(out.at(1).finish_s == Approx(0.1215));
  CHECK(res.preemptions == 1);
  CHECK(res.tpot.max == Approx((0.1215 - 0.0116) / 5));
  // Blocks held: 4 of 5 during the prefill, 3 after the preemption, 4 again at r0's 13th token.
  CHECK(res.kv_occupancy_peak == Approx(0.8));
}

TEST_CASE("admission waits for free blocks and the sequence limit") {
  // 3 blocks of 16 tokens: r0 (20 in, 2 out: 2 blocks) runs; r1 (20 in) needs 2 blocks, one is
  // free, so it waits until r0 finishes at 20 + 11 = 31 ms, then prefills (12 ms) and decodes.
  const StreamSpec s = trace_of({{0, 20, 2, -1}, {0, 20, 2, -1}});
  SimOptions o = roomy();
  o.limits.kv_blocks = 3;
  auto out = test::outcomes_by_id(s, o);
  CHECK(out.at(0).first_token_s == Approx(0.012));
  CHECK(out.at(0).finish_s == Approx(0.023));
  CHECK(out.at(1).first_scheduled_s == Approx(0.023));
  CHECK(out.at(1).first_token_s == Approx(0.035));
  // The same with room for both but one sequence at a time.
  o = roomy();
  o.limits.max_sequences = 1;
  out = test::outcomes_by_id(s, o);
  CHECK(out.at(1).first_scheduled_s == Approx(0.023));
  // Room and sequences for both: they prefill together (10 + 4 ms).
  out = test::outcomes_by_id(s, roomy());
  CHECK(out.at(1).first_token_s == Approx(0.014));
}

TEST_CASE("a prompt over the token budget is prefilled in chunks and whole without chunking") {
  // Budget 64: 150 tokens in chunks of 64, 64 and 22 (16.4, 16.4 and 12.2 ms); the first token
  // after the third.
  const StreamSpec s = trace_of({{0, 150, 1, -1}});
  SimOptions o = roomy();
  o.limits.token_budget = 64;
  auto out = test::outcomes_by_id(s, o);
  CHECK(out.at(0).first_token_s == Approx(0.0164 + 0.0164 + 0.0122));
  // Without chunked prefill a prompt over the budget never starts: refused as unschedulable.
  o.limits.chunked_prefill = false;
  test::FakeTimer timer;
  CHECK_THROWS_WITH(simulate(s, timer, o), Catch::Contains("can never schedule"));
  // A request longer than the replica's KV is refused and counted.
  o = roomy();
  o.limits.kv_blocks = 4;  // 64 tokens
  SimResult res;
  const StreamSpec two = trace_of({{0, 150, 1, -1}, {0.1, 10, 1, -1}});
  out = test::outcomes_by_id(two, o, &res);
  CHECK(res.rejected == 1);
  CHECK(out.size() == 1);
  CHECK(res.ttft.count == 1);
}

TEST_CASE("routers spread requests and a closed loop sends on each finish") {
  StreamSpec s = trace_of({{0, 10, 1, -1}, {0, 10, 1, -1}, {0, 10, 1, -1}, {0, 10, 1, -1}});
  SimOptions o = roomy();
  o.replicas = 2;
  auto out = test::outcomes_by_id(s, o);
  CHECK(out.at(0).replica == 0);
  CHECK(out.at(1).replica == 1);
  CHECK(out.at(2).replica == 0);
  o.router = Router::least_outstanding;
  out = test::outcomes_by_id(s, o);
  CHECK(out.at(2).replica == 0);
  CHECK(out.at(3).replica == 1);
  // One client: each request is sent when the one before finishes (11 ms per 10-token prompt).
  StreamSpec closed;
  closed.arrival.kind = ArrivalKind::concurrency;
  closed.arrival.concurrency = 1;
  closed.requests = 4;
  closed.input.value = 10;
  closed.output.value = 1;
  out = test::outcomes_by_id(closed, roomy());
  REQUIRE(out.size() == 4);
  CHECK(out.at(3).request.arrival_s == Approx(0.033));
  CHECK(out.at(3).finish_s == Approx(0.044));
}

TEST_CASE("goodput counts the requests meeting every SLO") {
  const StreamSpec s = trace_of({{0, 100, 3, -1}, {0.005, 200, 2, -1}, {1.0, 50, 1, -1}});
  SimOptions o = roomy();
  o.slo.push_back(SloTarget{SloLatency::ttft, 0, 0.030, {}});  // r1's 46 ms misses
  SimResult res;
  test::outcomes_by_id(s, o, &res);
  CHECK(res.goodput_requests_per_s == Approx(2 / 1.015));
  o.slo.push_back(SloTarget{SloLatency::tpot, 0, 0.020, {}});  // r0's 21.5 ms misses too
  test::outcomes_by_id(s, o, &res);
  CHECK(res.goodput_requests_per_s == Approx(1 / 1.015));
}

TEST_CASE("the same stream gives the same result and the warm-up is not measured") {
  StreamSpec s;
  s.requests = 3000;
  s.warmup = 500;
  s.arrival.rate_per_s = 40;
  s.input.kind = LengthKind::uniform;
  s.input.min = 50;
  s.input.max = 500;
  s.output.kind = LengthKind::uniform;
  s.output.min = 1;
  s.output.max = 40;
  SimOptions o = roomy();
  o.replicas = 3;
  o.router = Router::least_outstanding;
  test::FakeTimer t1, t2;
  const SimResult a = simulate(s, t1, o), b = simulate(s, t2, o);
  CHECK(a.ttft.count == 2500);
  CHECK(a.ttft.percentile == b.ttft.percentile);
  CHECK(a.itl.mean == b.itl.mean);
  CHECK(a.end_s == b.end_s);
  CHECK(a.ttft.half_width[1] > 0);
  CHECK(a.kv_occupancy_mean > 0);
  CHECK(a.kv_occupancy_mean <= a.kv_occupancy_peak);
  s.warmup = 3000;
  CHECK_THROWS(simulate(s, t1, o));
}
