// The scheduling rules that differ between frameworks (docs/physics.md §12.5 "Scheduling rules"),
// each on a crafted trace whose timeline is computed by hand with fake_timer.hpp's FakeTimer (an
// iteration costs 10 ms, 1 ms per decode token, 0.1 ms per prefill token): the two rules give
// different TTFT or TPOT, so each rule matters and runs as documented. The rules come from the
// shipped data/frameworks.yaml where a framework's whole set is compared.
#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "analysis/requests/request_sim.hpp"
#include "engine_fixture.hpp"
#include "fake_timer.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

using namespace tessera;
using namespace tessera::requests;
using tessera::test::trace_of;

namespace {

std::map<std::uint64_t, RequestOutcome> run(const StreamSpec& s, const SimOptions& o) {
  std::map<std::uint64_t, RequestOutcome> out;
  SimOptions opts = o;
  opts.on_request = [&](const RequestOutcome& r) { out[r.request.id] = r; };
  test::FakeTimer timer;
  simulate(s, timer, opts);
  return out;
}

// A framework version's rules and preemption as data/frameworks.yaml lists them (its newest).
SimOptions framework(const char* name) {
  static const ServingStackCatalog catalog =
      load_serving_stack_catalog(default_serving_stacks_path(std::string(TESSERA_SOURCE_DIR)));
  for (const ServingStackProfile& p : catalog.frameworks)
    if (p.name == name) {
      SimOptions o = test::roomy();
      o.limits.rules = p.versions.front().scheduler;
      o.limits.preemption = p.versions.front().preemption;
      return o;
    }
  FAIL("no framework " << name);
  return {};
}

double tpot(const RequestOutcome& o) {
  return (o.finish_s - o.first_token_s) / static_cast<double>(o.request.output - 1);
}

}  // namespace

TEST_CASE("scheduling rules: the catalog's frameworks differ as docs/physics.md tabulates") {
  const SchedulerRules v = framework("vllm").limits.rules;
  const SchedulerRules s = framework("sglang").limits.rules;
  const SimOptions t = framework("tensorrt-llm");
  CHECK(v.order == StepOrder::running_first);
  CHECK(v.mixed);
  CHECK(v.budget == BudgetCounts::all);
  CHECK(v.victim == Victim::newest);
  CHECK(v.admission == Admission::blocks);
  CHECK(s.order == StepOrder::prefill_first);
  CHECK_FALSE(s.mixed);
  CHECK(s.budget == BudgetCounts::prefill);
  CHECK(s.victim == Victim::fewest_output);
  CHECK(s.admission == Admission::reserve_output);
  CHECK(s.ratio_init == 0.7);
  CHECK(s.clip_output == 4096);
  CHECK(t.limits.rules.order == StepOrder::running_first);
  CHECK(t.limits.preemption == Preemption::no_evict);
}

TEST_CASE("scheduling rules: prefill first (SGLang) holds decodes back - running first (vLLM) mixes") {
  // r0 at 0 (100 in, 4 out), r1 at 25 ms (200 in, 2 out).
  // vLLM: 0-20 r0's prefill; 20-31 r0 decodes alone (r1 not there yet); 31-62 r0's decode beside
  //   r1's whole prompt (10 + 1 + 20); 62-74 both decode: r1 done, r0's fourth token, done.
  //   TTFT r1 = 62 - 25 = 37 ms; TPOT r0 = (74 - 20) / 3 = 18 ms.
  // SGLang: 0-20 r0's prefill; 20-31 r0 decodes; 31-61 r1's prefill alone (r0 waits);
  //   61-73 both decode (r1 done); 73-84 r0's last token. TTFT r1 = 36 ms; TPOT r0 = 64 / 3 ms.
  const StreamSpec s = trace_of({{0, 100, 4, -1}, {0.025, 200, 2, -1}});
  const auto v = run(s, framework("vllm"));
  const auto g = run(s, framework("sglang"));
  CHECK(v.at(1).first_token_s - 0.025 == Approx(0.037));
  CHECK(tpot(v.at(0)) == Approx(0.018));
  CHECK(v.at(0).max_gap_s == Approx(0.031));
  CHECK(g.at(1).first_token_s - 0.025 == Approx(0.036));
  CHECK(tpot(g.at(0)) == Approx(0.064 / 3));
  CHECK(g.at(0).max_gap_s == Approx(0.042));
  CHECK(g.at(0).finish_s == Approx(0.084));
}

TEST_CASE("scheduling rules: what the batched-token limit counts moves a chunked prompt's TTFT") {
  // Budget 100 tokens, running first, mixed. r0, r1 at 0 (50 in, 3 out); r2 at 30 ms (200 in, 1 out).
  // 0-20: both prompts (100 tokens). 20-32: two decodes (r2 not there).
  // all (vLLM): 32-53.8 two decodes + 98 of r2's tokens (10 + 2 + 9.8); 53.8-73.8 100 more;
  //   73.8-84 the last 2: TTFT r2 = 84 - 30 = 54 ms.
  // prefill (SGLang's count): 32-54 two decodes + 100 tokens (decodes not counted); 54-74 the last
  //   100: TTFT r2 = 44 ms.
  const StreamSpec s = trace_of({{0, 50, 3, -1}, {0, 50, 3, -1}, {0.030, 200, 1, -1}});
  SimOptions all = test::roomy();
  all.limits.token_budget = 100;
  SimOptions prefill = all;
  prefill.limits.rules.budget = BudgetCounts::prefill;
  CHECK(run(s, all).at(2).first_token_s - 0.030 == Approx(0.054));
  CHECK(run(s, prefill).at(2).first_token_s - 0.030 == Approx(0.044));
}

TEST_CASE("scheduling rules: the preemption victim decides whose tokens wait") {
  // 4 blocks of 4 tokens. r0 (7 in, 6 out) and r1 (5 in, 6 out) at 0: both prompts 0-11.2 ms (2 + 2
  // blocks: none free); 11.2-23.2 both decode. At 23.2 r0 needs a third block:
  // newest (vLLM): r1 is preempted; r0 decodes alone to its sixth token (4 x 11 ms: 67.2); r1
  //   recomputes its 7 tokens (67.2-77.9) and decodes 3 more (110.9).
  // fewest_output (SGLang): both have 2 tokens; the longer prompt, r0, goes; r1 decodes to its
  //   sixth (67.2, taking a third block at 45.2); r0 recomputes 9 tokens (67.2-78.1) and decodes 3
  //   more (111.1).
  const StreamSpec s = trace_of({{0, 7, 6, -1}, {0, 5, 6, -1}});
  SimOptions newest = test::roomy();
  newest.limits.kv_blocks = 4;
  newest.limits.block_tokens = 4;
  SimOptions fewest = newest;
  fewest.limits.rules.victim = Victim::fewest_output;
  const auto n = run(s, newest);
  const auto f = run(s, fewest);
  CHECK(n.at(0).finish_s == Approx(0.0672));
  CHECK(n.at(1).finish_s == Approx(0.1109));
  CHECK(n.at(1).preemptions == 1);
  CHECK(f.at(1).finish_s == Approx(0.0672));
  CHECK(f.at(0).finish_s == Approx(0.1111));
  CHECK(f.at(0).preemptions == 1);
  CHECK(tpot(n.at(0)) == Approx(0.0112));
  CHECK(tpot(f.at(0)) == Approx(0.0999 / 5));
}

TEST_CASE("scheduling rules: SGLang's output reservation holds an admission vLLM makes") {
  // 100 blocks of 16 tokens (1600). r0 at 0 (100 in, 10 out); r1 at 5 ms (100 in, 1400 out).
  // blocks (vLLM): r1 joins r0's first decode at 20 ms (10 + 1 + 10): TTFT r1 = 41 - 5 = 36 ms.
  // reserve_output: at 20 ms the room is 93 x 16 - 9 x 0.7 = 1481.7 tokens < 100 + 1400: r1 waits
  //   for r0 (9 decodes of 11 ms, done at 119 ms), then prefills (20 ms): TTFT = 139 - 5 = 134 ms.
  const StreamSpec s = trace_of({{0, 100, 10, -1}, {0.005, 100, 1400, -1}});
  SimOptions blocks = test::roomy();
  blocks.limits.kv_blocks = 100;
  SimOptions reserve = blocks;
  reserve.limits.rules.admission = Admission::reserve_output;
  CHECK(run(s, blocks).at(1).first_token_s - 0.005 == Approx(0.036));
  CHECK(run(s, reserve).at(1).first_token_s - 0.005 == Approx(0.134));
}

TEST_CASE("scheduling rules: no eviction (TensorRT-LLM) admits only what will fit to the end") {
  // The victim trace under TensorRT-LLM's rules: r0 commits 13 tokens (4 blocks), r1 would need 3
  // more: r1 waits for r0 (prefill 10.7 ms, 5 decodes: 65.7), then prefills (10.5: TTFT 76.2 ms)
  // and decodes (131.2). Under vLLM's r1's TTFT is 11.2 ms (and it is preempted once).
  const StreamSpec s = trace_of({{0, 7, 6, -1}, {0, 5, 6, -1}});
  SimOptions t = framework("tensorrt-llm");
  t.limits.kv_blocks = 4;
  t.limits.block_tokens = 4;
  SimOptions v = framework("vllm");
  v.limits.kv_blocks = 4;
  v.limits.block_tokens = 4;
  const auto tr = run(s, t);
  const auto vl = run(s, v);
  CHECK(tr.at(1).first_token_s == Approx(0.0762));
  CHECK(tr.at(1).finish_s == Approx(0.1312));
  CHECK(tr.at(1).preemptions == 0);
  CHECK(vl.at(1).first_token_s == Approx(0.0112));
  CHECK(vl.at(1).preemptions == 1);
}

TEST_CASE("scheduling rules: SGLang's whole rule set holds a long request behind a running one") {
  SimOptions o = framework("sglang");
  o.limits.kv_blocks = 100;
  // r0 (16 in, 200 out) at 0; r1 (84 in, 1400 out) at 1 ms. r0 holds 2 blocks from its first decode
  // on (17..32 tokens), then 3, ...; the room = (100 - b) x 16 - (200 - g) x ratio.
  const StreamSpec s = trace_of({{0, 16, 200, -1}, {0.001, 84, 1400, -1}});
  const auto out = run(s, o);
  // By hand: r0's prefill 0-11.6 ms (g = 1). r1 needs 84 + 1400 = 1484 < room? at 11.6 ms: b = 1,
  // room = 99 x 16 - 199 x 0.7 = 1584 - 139.3 = 1444.7: no. Each decode batch adds a token (b grows
  // by one block per 16) and lowers (200 - g) x ratio; r1 waits until r0 finishes (g = 200: room =
  // 1600 - 0 > 1484 after r0 leaves at 11.6 + 199 x 11 = 2200.6 ms): TTFT = 2200.6 + 18.4 - 1.
  // (The ratio's decay alone never opens the room: at g = 199, b = 14, ratio = 0.7 - 198 x 0.001003
  // = 0.501: room = 86 x 16 - 0.5 = 1375.5.)
  CHECK(out.at(1).first_token_s == Approx(2.2006 + 0.0184));
}
