// serving/aggregated's limits with the real evaluator (docs/physics.md §12.3): Llama-3.1-70B on
// DGX H100 (scenarios/llama3.1-70b-decode-4k-h100.yaml, its overlap latency model), TP 8.
#include <catch2/catch.hpp>

#include <cmath>

#include "eval/host_step_timer.hpp"
#include "serving_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

constexpr char kScenario[] = "llama3.1-70b-decode-4k-h100.yaml";

ParallelConfig tp8() {
  ParallelConfig c;
  c.tp = 8;
  return c;
}

// One mixed iteration of `decode` tokens at `context` beside `tokens` prefill tokens after
// `prefix`: what costing a single "average" iteration would take as the TPOT.
double averaged_iteration(const Session& s, const ParallelConfig& c, std::int64_t decode, double context,
                          std::int64_t tokens, std::int64_t prefix) {
  Evaluation e;
  s.evaluator().layout_for(c, e);
  Workload w = s.workload();
  w.mode = Mode::prefill;
  w.batch = 1;
  w.context = prefix + tokens;
  w.chunk = tokens;
  return s.evaluator().chunk_time(w, c, e.layout, 1, tokens, prefix, false, decode, context, e);
}

}  // namespace

TEST_CASE("aggregated limit: OSL far above ISL gives static's decode step at the mean context",
          "[serving][aggregated][limits]") {
  // ISL 128, OSL 64K, B 8, budget 2048: one chunk per request (c = 2041), 7 decode tokens
  // beside it, once per (1 + 65535) / 8 iterations. static times every token at
  // ISL + (OSL - 1) / 2 = 32895.5, aggregated at ISL + OSL / 2 = 32896: the same rounded step.
  const Session agg(serving_scenario(kScenario, 128, 65536, choice("aggregated")), registry());
  const Session st(serving_scenario(kScenario, 128, 65536, choice("static")), registry());
  const ServingMetrics a = serve_point(agg, tp8(), 8, 2048);
  const ServingMetrics s = serve_point(st, tp8(), 8, 2048);
  REQUIRE(a.infeasible == nullptr);
  CHECK(a.chunk_iterations == 1);
  // Exactly: TPOT = t_dec + (B - 1) (TTFT - n_c t_dec) / (OSL - 1), the chunk iteration's excess
  // shared by the OSL - 1 decode tokens; within 1e-4 of the static step here.
  CHECK(a.tpot_s == Approx(s.tpot_s + 7 * (a.ttft_s - s.tpot_s) / 65535).epsilon(1e-12));
  CHECK(a.tpot_s > s.tpot_s);
  CHECK(std::abs(a.tpot_s / s.tpot_s - 1) < 1e-4);
  CHECK(a.tpot_tail_s == a.ttft_s);  // the one mixed iteration
}

TEST_CASE("aggregated limit: B 1 gives static's prefill in chunks of the budget",
          "[serving][aggregated][limits]") {
  // One sequence in flight: nothing decodes beside its chunks (c = budget), as `tessera run`
  // prefills one prompt of 4096 tokens in chunks of 1024 (pp = 1: the chunks in series).
  const Session agg(serving_scenario(kScenario, 4096, 1024, choice("aggregated")), registry());
  const Session st(serving_scenario(kScenario, 4096, 1024, choice("static")), registry());
  for (const std::int64_t budget : {1024, 1500, 4096, 0}) {
    const ServingMetrics a = serve_point(agg, tp8(), 1, budget);
    const ServingMetrics s = serve_point(st, tp8(), 1, budget);
    REQUIRE(a.infeasible == nullptr);
    CHECK(a.chunk == s.chunk);
    CHECK(a.chunk_iterations == s.chunk_iterations);
    CHECK(a.ttft_s == Approx(s.ttft_s).epsilon(1e-12));
  }
  // The same with mixing: alternating (B = 1 has no decode to stall).
  const Session alt(
      serving_scenario(kScenario, 4096, 1024, choice("aggregated", {{"mixing", "alternating"}})), registry());
  CHECK(serve_point(alt, tp8(), 1, 1024).ttft_s ==
        Approx(serve_point(st, tp8(), 1, 1024).ttft_s).epsilon(1e-12));
}

TEST_CASE("aggregated: the issue's example - 70B TP8 H100 B 64 4K/1K budget 2K",
          "[serving][aggregated][limits]") {
  // c = 2048 - 63 = 1985, n_c = 3; (1023 - 3 x 63) / 64 decode-only iterations per request.
  const Session agg(serving_scenario(kScenario, 4096, 1024, choice("aggregated")), registry());
  const ServingMetrics m = serve_point(agg, tp8(), 64, 2048);
  REQUIRE(m.infeasible == nullptr);
  CHECK(m.chunk == 1985);
  CHECK(m.chunk_iterations == 3);
  CHECK(m.max_batch == 342);
  CHECK(m.kv_tokens_peak == 64.0 * 5120);
  CHECK(m.kv_fits);
  // The cycle's TPOT exceeds the decode-only step and stays below its slowest mixed iteration;
  // the tokens/s are B / TPOT up to the first token's share: OSL / t_cycle.
  const double t_dec =
      serve_point(Session(serving_scenario(kScenario, 4096, 1024, choice("static")), registry()), tp8(), 64,
                  0)
          .tpot_s;
  CHECK(m.tpot_s > t_dec);
  CHECK(m.tpot_s < m.tpot_tail_s);
  const double t_cycle = 1 / m.requests_per_s;
  CHECK(m.tpot_s == Approx((64 * t_cycle - m.ttft_s) / 1023).epsilon(1e-12));
  CHECK(m.tokens_per_s == Approx(1024 / t_cycle).epsilon(1e-12));
  // The same point alternating: TPOT = t_dec + 63 TTFT / 1023 (chunks of 2048 alone).
  const Session alt(
      serving_scenario(kScenario, 4096, 1024, choice("aggregated", {{"mixing", "alternating"}})), registry());
  const ServingMetrics a = serve_point(alt, tp8(), 64, 2048);
  REQUIRE(a.infeasible == nullptr);
  CHECK(a.chunk_iterations == 2);
  CHECK(a.tpot_s == Approx(t_dec + 63 * a.ttft_s / 1023).epsilon(1e-12));
  CHECK(a.tpot_tail_s == Approx(t_dec + a.ttft_s).epsilon(1e-12));
  // One "average" iteration (B decode tokens and B ISL / OSL = 256 prefill tokens at the mean
  // prefix) underestimates the cycle: step time is convex in tokens (the point).
  const double t_avg = averaged_iteration(agg, tp8(), 64, 4608, 256, 2048);
  CHECK(t_avg < m.tpot_s);
  // Measured (Release): decode step 11.61 ms, averaged iteration 15.84 ms, mixed TPOT 18.11 ms (tail
  // 63.39 ms, TTFT 140.4 ms); alternating TPOT 19.11 ms (tail 133.5 ms).
}

TEST_CASE("aggregated: the issue's example with the calibrated latency model",
          "[serving][aggregated][limits]") {
  Scenario sc = serving_scenario(kScenario, 4096, 1024, choice("aggregated"));
  sc.plugins.latency = {choice("calibrated")};
  const Session agg(sc, registry());
  const ServingMetrics m = serve_point(agg, tp8(), 64, 2048);
  REQUIRE(m.infeasible == nullptr);
  // Its per-step costs are not convex in tokens: the averaged iteration is reported, not ordered.
  Scenario st = sc;
  st.plugins.serving = choice("static");
  const double t_dec = serve_point(Session(st, registry()), tp8(), 64, 0).tpot_s;
  CHECK(m.tpot_s == Approx(t_dec + (63 * m.ttft_s - 3 * 63 * t_dec) / 1023).epsilon(1e-9));
  const double t_avg = averaged_iteration(agg, tp8(), 64, 4608, 256, 2048);
  CHECK(t_avg > t_dec);
  // Measured (Release): decode step 26.45 ms, averaged iteration 41.59 ms, mixed TPOT 37.01 ms (tail
  // 106.6 ms, TTFT 250.8 ms).
}

TEST_CASE("the host's decode_iteration is run's pipeline-full decode for pp 2",
          "[serving][aggregated][limits]") {
  // TP 4 x PP 2, B 64 at 4096 + 512: run reports the pipeline-full throughput dp B / (pp t_stage);
  // a sequence gets a token every pp t_stage = dp B / that, below the serial step's latency.
  Scenario sc = load(kScenario, {"plugins.latency=overlap"});
  sc.workload.batch = 64;
  sc.workload.context = 4608;
  const Session run(sc, registry());
  ParallelConfig c;
  c.tp = 4;
  c.pp = 2;
  Evaluation e;
  run.evaluator().evaluate(c, e);
  REQUIRE(e.totals.pipeline_throughput_tok_s > 0);
  const Session agg(serving_scenario(kScenario, 4096, 1024, choice("aggregated")), registry());
  Evaluation step, scratch;
  agg.evaluator().layout_for(c, step);
  HostStepTimer timer(agg.evaluator(), c, step.layout, scratch);
  const double serial = timer.decode_step(64, 4608);
  CHECK(serial == e.totals.latency_s);
  const double iteration = timer.decode_iteration(64, 4608);
  CHECK(iteration == Approx(64.0 / e.totals.pipeline_throughput_tok_s).epsilon(1e-12));
  CHECK(iteration < serial);
  // pp 1: the two are the same step.
  ParallelConfig c1;
  c1.tp = 8;
  agg.evaluator().layout_for(c1, step);
  HostStepTimer timer1(agg.evaluator(), c1, step.layout, scratch);
  CHECK(timer1.decode_iteration(64, 4608) == timer1.decode_step(64, 4608));
}
