// Prefix caching and KV offload in the request simulation (analysis/requests/prefix_cache.hpp,
// replica.cpp; docs/physics.md §12.7) on hand-computed timelines of fake_timer.hpp's FakeTimer
// (10 ms an iteration, 1 ms a decode token, 0.1 ms a prefill token): hits of a shared prefix and of
// a conversation's history, the last block always computed, shared blocks counted once, eviction
// order, and offload at infinite, zero and finite bandwidth against their closed forms.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <vector>

#include "analysis/capacity/capacity_search.hpp"
#include "analysis/requests/replica.hpp"
#include "analysis/requests/request_sim.hpp"
#include "engine_fixture.hpp"
#include "fake_timer.hpp"

using namespace tessera;
using namespace tessera::requests;

namespace {

// `count` requests one second apart, `input` and `output` tokens each, all measured.
StreamSpec spaced_stream(std::uint64_t count, std::int64_t input, std::int64_t output) {
  StreamSpec s;
  s.arrival.kind = ArrivalKind::constant;
  s.arrival.rate_per_s = 1;
  s.requests = count;
  s.input.value = input;
  s.output.value = output;
  return s;
}

double ttft_of(const RequestOutcome& o) { return o.first_token_s - o.request.arrival_s; }

// One replica driven by hand: requests enqueued at given times, iterations run until it idles.
class EngineBench {
 public:
  explicit EngineBench(const EngineLimits& lim) : memo_(timer_), replica_(lim, memo_, 0) {}
  // `r` waits at the replica (sent by test::outcomes_by_id()).
  void enqueue(const Request& r) { replica_.enqueue(r); }
  // `r` arrives at `at_s`, after everything before it finished; the replica runs until it idles.
  void send(const Request& r, double at_s) {
    replica_.enqueue(r);
    double now = at_s;
    while (replica_.start(now)) {
      now = replica_.busy_until();
      replica_.finish([&](const RequestOutcome& o) { done[o.request.id] = o; },
                      [](const Request&, double, std::uint64_t) {});
    }
  }
  const Replica& replica() const { return replica_; }
  std::map<std::uint64_t, RequestOutcome> done;

 private:
  test::FakeTimer timer_;
  StepMemo memo_;
  Replica replica_;
};

Request req_of(std::uint64_t id, double at_s, std::int64_t input, std::int64_t output,
               std::int64_t conversation = -1, std::int64_t prefix_id = -1, std::int64_t prefix_tokens = 0) {
  Request r;
  r.id = id;
  r.arrival_s = at_s;
  r.input = input;
  r.output = output;
  r.conversation = conversation;
  r.prefix_id = prefix_id;
  r.prefix_tokens = prefix_tokens;
  return r;
}

EngineLimits cached_limits(std::int64_t blocks) {
  EngineLimits lim = test::roomy().limits;
  lim.kv_blocks = blocks;
  lim.prefix_caching = true;
  return lim;
}

}  // namespace

TEST_CASE("prefix caching with nothing to share changes nothing") {
  StreamSpec s;
  s.arrival.rate_per_s = 40;
  s.requests = 300;
  s.warmup = 30;
  s.input.kind = LengthKind::lognormal;
  s.input.median = 300;
  s.input.sigma = 0.6;
  s.input.max = 900;
  s.output.kind = LengthKind::uniform;
  s.output.min = 5;
  s.output.max = 60;
  SimOptions off = test::roomy(), on = test::roomy();
  off.limits.kv_blocks = on.limits.kv_blocks = 200;  // preemptions too
  on.limits.prefix_caching = true;
  SimResult a, b;
  const auto oa = test::outcomes_by_id(s, off, &a), ob = test::outcomes_by_id(s, on, &b);
  REQUIRE(a.preemptions > 0);
  CHECK(b.preemptions == a.preemptions);
  CHECK(b.iterations == a.iterations);
  CHECK(b.end_s == a.end_s);
  CHECK(b.ttft.mean == a.ttft.mean);
  CHECK(b.tpot.percentile[2] == a.tpot.percentile[2]);
  CHECK(b.cache.on);
  CHECK(b.cache.hits == 0);
  CHECK_FALSE(a.cache.on);
}

TEST_CASE("a shared prefix is computed once: later requests prefill what follows its cached blocks") {
  // 500-token prompts whose first 320 tokens (20 blocks) are one group's. r0: 10 + 0.1 x 500 =
  // 60 ms; r1-r3 find the 20 blocks: 10 + 0.1 x 180 = 28 ms. Without caching: 60 ms each.
  StreamSpec s = spaced_stream(4, 500, 2);
  s.prefix.groups = 1;
  s.prefix.tokens = 320;
  SimOptions o = test::roomy();
  o.limits.prefix_caching = true;
  SimResult res;
  const auto on = test::outcomes_by_id(s, o, &res);
  CHECK(ttft_of(on.at(0)) == Approx(0.060));
  for (std::uint64_t i = 1; i < 4; ++i) CHECK(ttft_of(on.at(i)) == Approx(0.028));
  // 31 full blocks of each prompt could have been shared (499 / 16); 3 x 20 found.
  CHECK(res.cache.looked_up == 4 * 31);
  CHECK(res.cache.hits == 60);
  o.limits.prefix_caching = false;
  const auto off = test::outcomes_by_id(s, o);
  for (std::uint64_t i = 0; i < 4; ++i) CHECK(ttft_of(off.at(i)) == Approx(0.060));
}

TEST_CASE("a prompt found whole in the cache still computes its last block") {
  // Hit ratio 1: a 320-token prompt that is all prefix finds (320 - 1) / 16 = 19 blocks: its last
  // 16 tokens are computed, 10 + 1.6 ms (vLLM's max_cache_hit_length = num_tokens - 1, block-aligned).
  StreamSpec s = spaced_stream(2, 320, 1);
  s.prefix.groups = 1;
  s.prefix.tokens = 320;
  SimOptions o = test::roomy();
  o.limits.prefix_caching = true;
  const auto on = test::outcomes_by_id(s, o);
  CHECK(ttft_of(on.at(0)) == Approx(0.042));
  CHECK(ttft_of(on.at(1)) == Approx(0.0116));
}

TEST_CASE("a conversation's later turn finds its history - the prompt and output before it") {
  // Conversation 0: turn 0 (id 0, at 0 s): 100 in, 29 out: 20 ms prefill, 28 decodes of 11 ms:
  // done at 328 ms with 100 + 28 = 128 tokens cached (8 blocks). Its turn 1 (id 2, sent at once):
  // 100 + 29 + 100 = 229 tokens, 8 blocks found: 10 + 0.1 x 101 = 20.1 ms (32.9 ms uncached).
  // Conversation 1 (id 1, at 1 s) is new: 20 ms.
  StreamSpec s = spaced_stream(3, 100, 29);
  s.conversation.turns = 2;
  SimOptions o = test::roomy();
  o.limits.prefix_caching = true;
  const auto on = test::outcomes_by_id(s, o);
  REQUIRE(on.size() == 3);
  CHECK(on.at(2).request.conversation == 0);
  CHECK(on.at(2).request.turn == 1);
  CHECK(on.at(2).request.input == 229);
  CHECK(on.at(2).request.arrival_s == Approx(0.328));
  CHECK(ttft_of(on.at(0)) == Approx(0.020));
  CHECK(ttft_of(on.at(1)) == Approx(0.020));
  CHECK(ttft_of(on.at(2)) == Approx(0.0201));
  o.limits.prefix_caching = false;
  CHECK(ttft_of(test::outcomes_by_id(s, o).at(2)) == Approx(0.0329));
}

TEST_CASE("blocks shared by running requests count once against the KV") {
  // 30 blocks; prompts of 336 tokens (21 blocks) whose first 320 are shared. After r0, three
  // arrive together: cached, each adds 2 blocks beside the 20 shared (26 in all) and all three
  // start at once; uncached each needs 22 blocks and they run one after another.
  EngineLimits lim = cached_limits(30);
  for (const bool caching : {true, false}) {
    lim.prefix_caching = caching;
    EngineBench e(lim);
    e.send(req_of(0, 0, 336, 2, -1, 0, 320), 0);
    e.enqueue(req_of(1, 1, 336, 4, -1, 0, 320));
    e.enqueue(req_of(2, 1, 336, 4, -1, 0, 320));
    e.send(req_of(3, 1, 336, 4, -1, 0, 320), 1);
    REQUIRE(e.done.size() == 4);
    CAPTURE(caching);
    if (caching) {
      for (std::uint64_t i = 1; i <= 3; ++i) CHECK(e.done.at(i).first_scheduled_s == Approx(1));
    } else {
      CHECK(e.done.at(2).first_scheduled_s >= e.done.at(1).finish_s);
      CHECK(e.done.at(3).first_scheduled_s >= e.done.at(2).finish_s);
    }
  }
}

TEST_CASE("eviction takes the least recently freed blocks and a request's tail first") {
  // 30 blocks. Group A's request (336 tokens: 20 shared blocks and one of its own) leaves 21 blocks
  // in the free queue behind the 9 never used. Group B's request takes 21: the 9, then A's last
  // 12 freed first — its own block and shared blocks 19 down to 9. A's next request finds blocks
  // 0-8: 144 tokens, and computes 192: 10 + 19.2 ms (with 60 blocks, all 20: 10 + 1.6 ms).
  for (const std::int64_t blocks : {30, 60}) {
    EngineBench e(cached_limits(blocks));
    e.send(req_of(0, 0, 336, 1, -1, 0, 320), 0);
    e.send(req_of(1, 1, 336, 1, -1, 1, 320), 1);
    e.send(req_of(2, 2, 336, 1, -1, 0, 320), 2);
    CHECK(ttft_of(e.done.at(2)) == Approx(blocks == 30 ? 0.0292 : 0.0116));
  }
}

TEST_CASE("offload: KV evicted from HBM is loaded back when the copy is quicker than computing it") {
  // 12 blocks. Conversation 0's turn 0 (60 in, 5 out) leaves 64 tokens cached (4 blocks); a
  // 180-token request takes all 12 blocks, evicting them to the tier. Turn 1 (60 + 5 + 20 = 85
  // tokens) finds 4 blocks in the tier (84 / 16 = 5 at most): loading them leaves 21 tokens to
  // compute, 10 + 2.1 = 12.1 ms plus the copy, where computing them adds 0.1 x 64 = 6.4 ms: the
  // copy is taken when quicker than 6.4 ms, so a request is never slower than without the tier.
  const double uncached = 0.010 + 0.0085;  // all 85 tokens
  const double hit = 0.010 + 0.0021;
  struct Case {
    double block_s, latency_s;
    bool offload, write_through;
    double ttft;
  };
  const double inf = std::numeric_limits<double>::infinity();
  const Case cases[] = {
      {0, 0, true, false, hit},                     // infinite bandwidth: as an HBM hit
      {0, 0, true, true, hit},                      // the same, written through
      {inf, 0, true, false, uncached},              // zero bandwidth: as no offload
      {0.001, 0.0005, true, false, hit + 0.0045},   // 4 blocks of 1 ms and 0.5 ms latency
      {0.0012, 0.0005, true, false, hit + 0.0053},  // 5.3 ms < 6.4 ms: loaded, 17.4 < 18.5 ms
      {0.003, 0, true, false, uncached},            // 12 ms > 6.4 ms: computed instead
      {0.004, 0.0005, true, false, uncached},       // 16.5 ms: computed instead
      {0, 0, false, false, uncached},               // no tier
  };
  for (const Case& c : cases) {
    EngineLimits lim = cached_limits(12);
    if (c.offload) lim.offload = {OffloadTier{100, c.block_s, c.latency_s}};
    lim.offload_write_through = c.write_through;
    EngineBench e(lim);
    e.send(req_of(0, 0, 60, 5, 0), 0);
    e.send(req_of(1, 1, 180, 1), 1);
    e.send(req_of(2, 2, 85, 1, 0), 2);
    CAPTURE(c.block_s, c.latency_s, c.offload, c.write_through);
    CHECK(ttft_of(e.done.at(2)) == Approx(c.ttft));
    const CacheFigures f = e.replica().cache_figures();
    const bool loaded = c.offload && c.ttft != uncached;
    CHECK(f.loaded.size() == (c.offload ? 1u : 0u));
    if (c.offload) CHECK(f.loaded[0] == (loaded ? 4 : 0));
    CHECK(f.declined == (c.offload && !loaded ? 4 : 0));
  }
}

TEST_CASE("a tier's latency is paid once an iteration however many requests load from it") {
  // Conversations 0 and 1 (60 in, 5 out) each leave 4 blocks; a 180-token request evicts them
  // to the tier. Both second turns (85 tokens) arrive together and load their 4 blocks at 5 ms
  // latency (less than the 6.4 ms each saves): one iteration of two 21-token chunks, 10 + 4.2 ms,
  // plus the latency once: 19.2 ms each.
  EngineLimits lim = cached_limits(12);
  lim.offload = {OffloadTier{100, 0, 0.005}};
  EngineBench e(lim);
  e.send(req_of(0, 0, 60, 5, 0), 0);
  e.send(req_of(1, 1, 60, 5, 1), 1);
  e.send(req_of(2, 2, 180, 1), 2);
  e.enqueue(req_of(3, 3, 85, 1, 0));
  e.send(req_of(4, 3, 85, 1, 1), 3);
  CHECK(ttft_of(e.done.at(3)) == Approx(0.0192));
  CHECK(ttft_of(e.done.at(4)) == Approx(0.0192));
  CHECK(e.replica().cache_figures().loaded == std::vector<std::int64_t>{8});
}

TEST_CASE("an offload tier keeps its most recent blocks and spills the rest to the next") {
  PrefixCache cache(4, 16, {OffloadTier{2, 0, 0}, OffloadTier{1, 0, 0}});
  // Conversation c's first block registered, freed and evicted in turn: tier 0 keeps the last two,
  // tier 1 the one before, the first is gone.
  for (std::int64_t c = 0; c < 8; ++c) {
    BlockHold h;
    cache.allocate(h, 1);
    cache.computed(h, req_of(0, 0, 17, 1, c), 16);
    cache.release(h);
  }
  // 4 slots: conversations 4-7 still registered in HBM; 0-3 were evicted in that order.
  CacheProbe p;
  for (std::int64_t c = 0; c < 8; ++c) {
    cache.probe(req_of(0, 0, 17, 1, c), 17, p);
    CAPTURE(c);
    CHECK(p.hbm == (c >= 4 ? 1 : 0));
    CHECK(p.tier[0] == (c == 2 || c == 3 ? 1 : 0));
    CHECK(p.tier[1] == (c == 1 ? 1 : 0));
  }
}

TEST_CASE("offload raises the capacity at an SLO unless its copies are slower than the prefill") {
  // Conversations of 4 turns (a 2,000-token first prompt, 10 out, 50-token messages, 1 s think)
  // on 400 blocks (6,400 tokens: two or three histories). The more conversations at once, the
  // more of a returning history HBM has evicted and the turn recomputes (10 + 0.1 x 2,000 ms);
  // a DRAM tier of 10,000 blocks at 0.01 ms a block gives it back in about 1.3 ms. Capacity: the
  // most conversations per second with TTFT P50 <= 100 ms. At 1 s a block the copy is slower
  // than the prefill: every tier hit is recomputed and the capacity is HBM caching's.
  StreamSpec s;
  s.arrival.rate_per_s = 1;
  s.input.value = 2000;
  s.output.value = 10;
  s.conversation.turns = 4;
  s.conversation.think_s = 1;
  s.conversation.message_given = true;
  s.conversation.message.value = 50;
  s.seed = 3;
  const auto probe = [](std::vector<OffloadTier> tiers) {
    return [tiers](const StreamSpec& stream) {
      SimOptions o = test::roomy();
      o.exact = false;
      o.limits.kv_blocks = 400;
      o.limits.prefix_caching = true;
      o.limits.offload = tiers;
      SloTarget t;
      t.metric = SloLatency::ttft;
      t.percentile = 50;
      t.limit_s = 0.100;
      o.slo = {t};
      test::FakeTimer timer;
      return simulate(stream, timer, o);
    };
  };
  CapacitySettings settings;
  settings.min_requests = 600;
  settings.max_requests = 600;
  settings.max_probes = 14;
  const Capacity hbm = search_capacity(s, 1, settings, probe({}));
  const Capacity dram = search_capacity(s, 1, settings, probe({OffloadTier{10000, 1e-5, 0}}));
  const Capacity slow = search_capacity(s, 1, settings, probe({OffloadTier{10000, 1.0, 0}}));
  REQUIRE(hbm.found);
  REQUIRE(dram.found);
  CHECK(dram.load > 1.5 * hbm.load);
  CHECK(slow.load == hbm.load);
}
