// The disaggregated request simulation (analysis/requests/disagg_sim.hpp) on hand-computed
// timelines: one request (TTFT = its prefill + the KV transfer), two queued at one prefill
// replica, prompts finishing together sent together, a transfer waiting for the decode replica's
// KV; and the preemption modes of the engine (replica.hpp): swap (blocks copied out and in) and
// TensorRT-LLM's no-evict admission, against recompute.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <tuple>
#include <vector>

#include "analysis/requests/disagg_sim.hpp"
#include "analysis/requests/preemption_rule.hpp"
#include "engine_fixture.hpp"
#include "eval/host_step_timer.hpp"
#include "fake_timer.hpp"
#include "physics/kv_transfer.hpp"
#include "report/study_text/simulation_report.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"
#include "search_fixture.hpp"
#include "studies/entries/serve_entry.hpp"

using namespace tessera;
using namespace tessera::requests;
using tessera::test::trace_of;

namespace {

EngineLimits roomy_limits(std::int64_t max_sequences) {
  EngineLimits l;
  l.max_sequences = max_sequences;
  l.token_budget = 0;
  l.chunked_prefill = false;
  l.kv_blocks = 1000;
  l.block_tokens = 16;
  return l;
}

// One prefill replica of `prefill_batch` prompts, one decode replica; every transfer `transfer_s`.
DisaggSimOptions pools(std::int64_t prefill_batch, double transfer_s) {
  DisaggSimOptions o;
  o.prefill.limits = roomy_limits(prefill_batch);
  o.prefill.replicas = 1;
  o.prefill.exact = true;
  o.decode_limits = roomy_limits(8);
  o.decode_replicas = 1;
  o.transfer = [transfer_s](std::int64_t, std::int64_t, double, bool) { return transfer_s; };
  return o;
}

struct Run {
  std::map<std::uint64_t, RequestOutcome> out;
  SimResult res;
};

Run run_disagg(const StreamSpec& s, DisaggSimOptions o) {
  Run r;
  o.prefill.on_request = [&](const RequestOutcome& x) { r.out[x.request.id] = x; };
  test::FakeTimer prefill_timer, decode_timer;
  r.res = simulate_disaggregated(s, prefill_timer, decode_timer, o);
  return r;
}

Run run_aggregated(const StreamSpec& s, SimOptions o) {
  Run r;
  o.on_request = [&](const RequestOutcome& x) { r.out[x.request.id] = x; };
  test::FakeTimer timer;
  r.res = simulate(s, timer, o);
  return r;
}

}  // namespace

TEST_CASE("disaggregated - one request: TTFT is its prefill and the KV transfer") {
  // The prefill: 10 + 0.1 x 100 = 20 ms, the first token sampled; the transfer 5 ms: the token
  // reaches the client at 25 ms. The decode replica then decodes alone (11 ms a step): tokens 2
  // and 3 at 36 and 47 ms.
  const Run r = run_disagg(trace_of({{0, 100, 3, -1}}), pools(4, 0.005));
  REQUIRE(r.out.size() == 1);
  CHECK(r.out.at(0).first_scheduled_s == 0);
  CHECK(r.out.at(0).first_token_s == Approx(0.025));
  CHECK(r.out.at(0).finish_s == Approx(0.047));
  CHECK(r.res.ttft.mean == Approx(0.025));
  CHECK(r.res.tpot.mean == Approx(0.011));
  CHECK(r.res.itl.count == 2);
  CHECK(r.res.itl.max == Approx(0.011));
  REQUIRE(r.res.disagg);
  CHECK(r.res.disagg->transfer.mean == Approx(0.005));
  CHECK(r.res.disagg->transfer_wait.mean == 0);
  CHECK(r.res.disagg->prefill.iterations == 1);
  CHECK(r.res.disagg->decode.iterations == 2);
  CHECK(r.res.iterations == 3);
  CHECK(r.res.disagg->prefill.replicas == 1);
  CHECK(r.res.disagg->decode.replicas == 1);
}

TEST_CASE("disaggregated - two requests queue at one prefill replica") {
  // Prefill batch 1: r0 (100 in) 0-20 ms; r1 (200 in, arrived at 1 ms) waits, 20-50 ms. Each
  // transfer 5 ms: first tokens at 25 and 55 ms (TTFT 25 and 54 ms); each then decodes its
  // second token alone, 11 ms (finishes at 36 and 66 ms). r1 queued 19 ms.
  const Run r = run_disagg(trace_of({{0, 100, 2, -1}, {0.001, 200, 2, -1}}), pools(1, 0.005));
  REQUIRE(r.out.size() == 2);
  CHECK(r.out.at(0).first_token_s == Approx(0.025));
  CHECK(r.out.at(0).finish_s == Approx(0.036));
  CHECK(r.out.at(1).first_scheduled_s == Approx(0.020));
  CHECK(r.out.at(1).first_token_s == Approx(0.055));
  CHECK(r.out.at(1).finish_s == Approx(0.066));
  CHECK(r.res.ttft.mean == Approx((0.025 + 0.054) / 2));
  CHECK(r.res.queue.mean == Approx(0.019 / 2));
  CHECK(r.res.tpot.mean == Approx(0.011));
  // A request of one output token ends at its prefill: no transfer.
  const Run one = run_disagg(trace_of({{0, 100, 1, -1}}), pools(1, 0.005));
  CHECK(one.out.at(0).finish_s == Approx(0.020));
  CHECK(one.res.disagg->transfer.count == 0);
}

TEST_CASE("disaggregated - prompts finished together are sent together and a transfer waits for decode KV") {
  // Prefill batch 2: both prompts (100 in each) in one iteration, 10 + 0.1 x 200 = 30 ms; the
  // transfer is asked for 2 requests of 100 tokens after a prefill of 30 ms. The decode replica
  // has 10 blocks of 16 tokens: r0 reserves 7 (its prompt), r1's 7 do not fit beside them, so r1
  // waits until r0 (40 out) has finished: r0's KV arrives at 32 ms (overlapped: 2 ms), its 39
  // decode steps of 11 ms end at 461 ms; r1's transfer then starts, 431 ms after its prefill,
  // sent whole (7 ms): first token at 468 ms, its one decode step to 479 ms.
  DisaggSimOptions o = pools(2, 0);
  o.decode_limits.kv_blocks = 10;
  std::vector<std::tuple<std::int64_t, std::int64_t, double, bool>> asked;
  o.transfer = [&](std::int64_t tokens, std::int64_t requests, double prefill_s, bool overlapped) {
    asked.emplace_back(tokens, requests, prefill_s, overlapped);
    return overlapped ? 0.002 : 0.007;
  };
  const Run r = run_disagg(trace_of({{0, 100, 40, -1}, {0, 100, 2, -1}}), o);
  REQUIRE(asked.size() == 2);
  CHECK(std::get<0>(asked[0]) == 100);
  CHECK(std::get<1>(asked[0]) == 2);
  CHECK(std::get<2>(asked[0]) == Approx(0.030));
  CHECK(std::get<3>(asked[0]));
  CHECK_FALSE(std::get<3>(asked[1]));
  CHECK(r.out.at(0).first_token_s == Approx(0.032));
  CHECK(r.out.at(0).finish_s == Approx(0.032 + 39 * 0.011));
  CHECK(r.out.at(1).first_token_s == Approx(0.468));
  CHECK(r.out.at(1).finish_s == Approx(0.479));
  CHECK(r.res.disagg->transfer_wait.max == Approx(0.431));
  CHECK(r.res.disagg->transfer.mean == Approx((0.002 + 0.007) / 2));
  // The decode pool's KV peaked at 9 of 10 blocks (r0 at 139 tokens).
  CHECK(r.res.disagg->decode.kv_occupancy_peak == Approx(0.9));
  CHECK(r.res.preemptions == 0);
}

TEST_CASE("disaggregated - same result on every run and in any order of construction") {
  StreamSpec s;
  s.arrival.kind = ArrivalKind::poisson;
  s.arrival.rate_per_s = 40;
  s.requests = 400;
  s.warmup = 40;
  s.input.kind = LengthKind::uniform;
  s.input.min = 50;
  s.input.max = 400;
  s.output.kind = LengthKind::uniform;
  s.output.min = 2;
  s.output.max = 60;
  DisaggSimOptions o = pools(4, 0.003);
  o.prefill.replicas = 2;
  o.decode_replicas = 3;
  o.decode_limits.kv_blocks = 200;
  const Run a = run_disagg(s, o);
  const Run b = run_disagg(s, o);
  CHECK(a.res.measured == 360);
  CHECK(a.res.ttft.percentile == b.res.ttft.percentile);
  CHECK(a.res.tpot.percentile == b.res.tpot.percentile);
  CHECK(a.res.disagg->decode.kv_occupancy_mean == b.res.disagg->decode.kv_occupancy_mean);
  CHECK(a.res.end_s == b.res.end_s);
  // least_outstanding spreads the same stream differently but loses no request.
  o.prefill.router = Router::least_outstanding;
  const Run c = run_disagg(s, o);
  CHECK(c.out.size() == 400);
  CHECK(c.res.ttft.count == 360);
}

TEST_CASE("swap preemption copies the blocks out and in and keeps the computed tokens") {
  // 6 blocks of 16 tokens; r0 and r1 (32 in, 40 out) prefill together (10 + 6.4 ms), then decode
  // side by side (12 ms a step) holding 3 blocks each. Their 17th decode step needs a fourth
  // block for each: r0 preempts r1.
  SimOptions o;
  o.limits = roomy_limits(8);
  o.limits.token_budget = 1000;
  o.limits.chunked_prefill = true;
  o.limits.kv_blocks = 6;
  o.exact = true;
  const StreamSpec s = trace_of({{0, 32, 40, -1}, {0, 32, 40, -1}});
  const double t16 = 0.0164 + 16 * 0.012;  // 208.4 ms: both at 48 tokens (17 generated)
  // Recompute: r0 runs on alone (11 ms a step, its 23 steps to 461.4 ms); r1 then recomputes its
  // 49 tokens (10 + 4.9 ms) and decodes 22 more.
  const Run rec = run_aggregated(s, o);
  CHECK(rec.out.at(0).finish_s == Approx(t16 + 23 * 0.011));
  CHECK(rec.out.at(1).finish_s == Approx(t16 + 23 * 0.011 + 0.0149 + 22 * 0.011));
  CHECK(rec.res.preemptions == 1);
  CHECK(rec.res.swapped_blocks == 0);
  // Swap, 1 ms a block: the step that preempts r1 copies its 3 blocks out (11 + 3 ms); when r0
  // has finished, r1's 3 blocks come back in its first step (11 + 3 ms), no recompute.
  o.limits.preemption = Preemption::swap;
  o.limits.swap_block_s = 0.001;
  const Run sw = run_aggregated(s, o);
  const double r0_end = t16 + 0.014 + 22 * 0.011;
  CHECK(sw.out.at(0).finish_s == Approx(r0_end));
  CHECK(sw.out.at(1).finish_s == Approx(r0_end + 0.014 + 22 * 0.011));
  CHECK(sw.out.at(1).preemptions == 1);
  CHECK(sw.res.swapped_blocks == 6);
  // A copy's latency is paid once per iteration that swaps.
  o.limits.swap_latency_s = 0.002;
  const Run lat = run_aggregated(s, o);
  CHECK(lat.out.at(1).finish_s == Approx(r0_end + 0.002 + 0.014 + 0.002 + 22 * 0.011));
}

TEST_CASE("no-evict admission waits until a request's whole output fits and never preempts") {
  // 10 blocks of 16 tokens; each request (64 in, 40 out) commits 7 blocks: r1 waits for r0.
  // r0: prefill 16.4 ms, 39 decode steps of 11 ms (to 445.4 ms); r1 the same after it.
  SimOptions o;
  o.limits = roomy_limits(8);
  o.limits.token_budget = 1000;
  o.limits.chunked_prefill = true;
  o.limits.kv_blocks = 10;
  o.limits.preemption = Preemption::no_evict;
  o.exact = true;
  const StreamSpec s = trace_of({{0, 64, 40, -1}, {0, 64, 40, -1}});
  const Run ne = run_aggregated(s, o);
  const double r0_end = 0.0164 + 39 * 0.011;
  CHECK(ne.out.at(0).finish_s == Approx(r0_end));
  CHECK(ne.out.at(1).first_scheduled_s == Approx(r0_end));
  CHECK(ne.out.at(1).first_token_s == Approx(r0_end + 0.0164));
  CHECK(ne.out.at(1).finish_s == Approx(2 * r0_end));
  CHECK(ne.res.preemptions == 0);
  // Recompute admits both at once and preempts when their blocks run out.
  o.limits.preemption = Preemption::recompute;
  const Run rc = run_aggregated(s, o);
  CHECK(rc.out.at(1).first_scheduled_s == 0);
  CHECK(rc.res.preemptions >= 1);
  // A decode replica under no-evict reserves the prompt and commits the whole output: in a
  // disaggregated run the second transfer waits for the first request to finish.
  DisaggSimOptions d = pools(2, 0.001);
  d.decode_limits.kv_blocks = 10;
  d.decode_limits.preemption = Preemption::no_evict;
  const Run dr = run_disagg(s, d);
  CHECK(dr.res.preemptions == 0);
  CHECK(dr.res.disagg->transfer_wait.max > 0.4);
}

// ---- Through `tessera serve` (studies/entries/serve_entry.cpp): a disaggregated scenario with requests.

namespace {

// Llama-3.1-70B 4K/1K on DGX H100, TTFT <= 1 s and TPOT <= 50 ms, disaggregated pools of tp 4
// or 8, the stream `requests` (YAML flow mapping).
studies::ScenarioOptions disagg_scenario(const std::string& requests) {
  studies::ScenarioOptions o;
  o.text = studies::ScenarioText{
      "schema_version: 1\n"
      "kind: scenario\n"
      "name: disagg-requests-test\n"
      "model: ../models/llama3.1-70b.yaml\n"
      "machine: ../machines/dgx-h100.yaml\n"
      "workload: {mode: serve, input: 4K, output: 1K}\n"
      "sweep:\n"
      "  parallelism: {tp: [4, 8], pp: [1], dp: [1], tp_placement: [gpu]}\n"
      "  serving: {batch: [32, 64], token_budget: [8K]}\n"
      "serving:\n"
      "  slo: {ttft: 1 s, tpot: 50 ms}\n"
      "  max_pes: 32\n"
      "  disaggregated: {transfer_overlap: layerwise, max_replicas: 3, prefill_batch: [1, 2]}\n"
      "  requests: " +
          requests + "\n",
      "disagg-requests-test", std::string(TESSERA_SOURCE_DIR) + "/scenarios"};
  return o;
}

studies::ServeStudyResult serve_with(const studies::StudyContext& study, unsigned threads) {
  studies::ServeOptions so;
  so.threads = threads;
  so.document = true;
  so.simulate_top = 1;  // and the best pair's capacity, with small probes
  so.capacity.min_requests = 400;
  so.capacity.max_requests = 800;
  return studies::serve(study, so);
}

}  // namespace

TEST_CASE("serve simulates the best disaggregated pair - same at 1 and 3 threads") {
  const studies::StudyContext study(disagg_scenario("{arrival: poisson, rate: 0.2, count: 300, seed: 3}"), {},
                                    studies::StudyKind::serve);
  const studies::ServeStudyResult a = serve_with(study, 1);
  const studies::ServeStudyResult b = serve_with(study, 3);
  REQUIRE(a.answer.disagg);
  REQUIRE(a.answer.disagg->result.best);
  REQUIRE(a.simulated_disagg);
  const requests::SimResult& r = a.simulated_disagg->result;
  CHECK(r.measured == 270);
  CHECK(r.rejected == 0);
  REQUIRE(r.disagg);
  const DisaggPair& pair = a.simulated_disagg->pair;
  CHECK(r.disagg->prefill.replicas == pair.x * pair.prefill.config.dp);
  CHECK(r.disagg->decode.replicas == pair.y * pair.decode.config.dp);
  // Far below capacity the median request waits for nothing: its TTFT is one prompt's prefill on
  // the prefill configuration and its KV transfer alone, exposed as §12.4 says (at most the
  // study's TTFT, whose prefill batch b sends b prompts together).
  const Session& session = study.session();
  Evaluation holder, scratch;
  session.evaluator().layout_for(pair.prefill.config, holder);
  HostStepTimer timer(session.evaluator(), pair.prefill.config, holder.layout, scratch);
  timer.set_token_budget(0);
  const double prefill_s = timer.mixed_step(0, 0, 1, 4096, 0, true);
  const KvTransfer t = kv_transfer(session.model(), 4096, shape_of(pair.prefill.config),
                                   shape_of(pair.decode.config), pair.link, 1);
  const double lone =
      prefill_s + exposed_transfer_s(t, prefill_s, session.model().layers, TransferOverlap::layerwise);
  WARN("lone TTFT " << lone << " s, the pair's TTFT " << pair.ttft_s << " s (prefill batch "
                    << pair.prefill.batch << "), simulated P50 " << r.ttft.percentile[0] << " s");
  CHECK(r.ttft.percentile[0] == Approx(lone));
  CHECK(lone <= pair.ttft_s);
  CHECK(r.disagg->transfer.count == 270);
  // The documents and the text are identical at any thread count.
  REQUIRE(a.document.contains("simulation_disaggregated"));
  CHECK(a.document.at("simulation_disaggregated") == b.document.at("simulation_disaggregated"));
  CHECK(a.document.at("simulation_disaggregated").at("requests_measured") == 270);
  CHECK(a.document.at("simulation_disaggregated").at("kv_transfer").at("count") == 270);
  // The pair's capacity: searched from its steady-state rate, found, the same at any thread count.
  REQUIRE(a.capacity);
  REQUIRE(a.capacity->disaggregated);
  const requests::PairCapacity& cap = *a.capacity->disaggregated;
  CHECK(cap.capacity.found);
  CHECK(cap.capacity.probes.front().load == Approx(pair.requests_per_s));
  CHECK(cap.tokens_per_s_per_pe ==
        Approx(cap.capacity.at.output_tokens_per_s / static_cast<double>(pair.pes)));
  CHECK(a.document.at("capacity") == b.document.at("capacity"));
  std::ostringstream text;
  print_disagg_simulation(text, *a.simulated_disagg, study.scenario().serving.requests, 0);
  CHECK(text.str().find("requests simulated on the best disaggregated pair") != std::string::npos);
  CHECK(text.str().find("KV transfer mean") != std::string::npos);
}

TEST_CASE("a saturated disaggregated simulation carries the pair's steady-state rate") {
  // A closed loop of 160 clients keeps the bottleneck pool busy (the pair is prefill-bound: one
  // tp4 prefill instance of 2 prompts a prefill, two tp4 decode instances of batch 64; about 116
  // requests decode at a time, the rest queue at the prefill): the simulated request rate is the
  // pair's min(x r_p, y r_d) within 5 % (3.930 against 3.991 requests/s; a closed loop's window
  // runs about clients / rate longer than its measured requests take: 160 / 9000, 1.8 %).
  const studies::StudyContext study(
      disagg_scenario("{arrival: concurrency, concurrency: 160, count: 10000, warmup: 1000}"), {},
      studies::StudyKind::serve);
  const studies::ServeStudyResult a = serve_with(study, 2);
  REQUIRE(a.simulated_disagg);
  const DisaggPair& pair = a.simulated_disagg->pair;
  const requests::SimResult& r = a.simulated_disagg->result;
  WARN("steady state " << pair.requests_per_s << " requests/s (prefill-bound " << pair.prefill_bound
                       << "), simulated " << r.requests_per_s << "; x " << pair.x << " y " << pair.y);
  CHECK(pair.prefill_bound);
  CHECK(r.disagg->prefill.queue_depth_mean > 10);  // the prefill pool never idles
  CHECK(r.requests_per_s == Approx(pair.requests_per_s).epsilon(0.05));
  CHECK(r.requests_per_s < pair.requests_per_s);
}

TEST_CASE("each framework profile names its preemption and the scenario key overrides it") {
  const ServingStackCatalog catalog =
      load_serving_stack_catalog(default_serving_stacks_path(std::string(TESSERA_SOURCE_DIR)));
  auto mode = [&](const char* text) { return resolve_serving_stack(catalog, text, {}).version().preemption; };
  CHECK(mode("vllm") == Preemption::recompute);
  CHECK(mode("vllm@0.11.2") == Preemption::recompute);
  CHECK(mode("sglang") == Preemption::recompute);
  CHECK(mode("tensorrt-llm") == Preemption::no_evict);
  CHECK(mode("tensorrt-llm@1.0") == Preemption::no_evict);
  // Without a framework: recompute; serving.requests.preemption sets it, swap with its host link.
  const studies::StudyContext plain(disagg_scenario("{arrival: poisson, rate: 1, count: 20}"), {},
                                    studies::StudyKind::serve);
  CHECK(preemption_mode(plain.session(), plain.scenario().serving.requests) == Preemption::recompute);
  const studies::StudyContext swapping(
      disagg_scenario("{arrival: poisson, rate: 1, count: 20, preemption: swap, swap_bandwidth: 25 GB/s, "
                      "swap_latency: 10 us}"),
      {}, studies::StudyKind::serve);
  const RequestsSpec& spec = swapping.scenario().serving.requests;
  CHECK(preemption_mode(swapping.session(), spec) == Preemption::swap);
  CHECK(spec.swap_bandwidth == Approx(25e9));
  CHECK(spec.swap_latency_s == Approx(10e-6));
  // A block's copy: 16 tokens of Llama-3.1-70B's KV (80 layers x 8 KV heads x 128 x 2 x 2 bytes
  // = 327,680 B a token) at one of tp 4's shards (8 heads over 4: 1/4), over 25 GB/s.
  ParallelConfig tp4;
  tp4.tp = 4;
  EngineLimits l;
  l.block_tokens = 16;
  apply_preemption(swapping.session(), tp4, spec, l);
  CHECK(l.preemption == Preemption::swap);
  CHECK(l.swap_block_s == Approx(16 * 327680.0 / 4 / 25e9));
  CHECK(l.swap_latency_s == Approx(10e-6));
  // swap without its bandwidth is refused at the requests block.
  CHECK_THROWS_WITH(
      studies::StudyContext(disagg_scenario("{arrival: poisson, rate: 1, count: 20, preemption: swap}"), {},
                            studies::StudyKind::serve),
      Catch::Contains("serving.requests.swap_bandwidth: required with preemption: swap"));
}
