// Scheduler policies (tessera/kinds/scheduler_policy.hpp) in the request simulator: a policy that
// writes vLLM V1's first-come-first-served rules through the interface gives the built-in rules'
// results bit for bit; priority classes reach the policy; and every decision the engine cannot
// run — an unknown request, one named twice, tokens beyond its need, beyond the batched-token
// limit, the sequence limit or the KV capacity, a router's unknown replica, nothing scheduled
// while nothing else can happen — is an error naming the scheduler, never a wrong result.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <limits>
#include <map>

#include "analysis/requests/request_sim.hpp"
#include "engine_fixture.hpp"
#include "fake_timer.hpp"
#include "fcfs_policy.hpp"

using namespace tessera;
using namespace tessera::requests;
using tessera::test::trace_of;

namespace {

std::int64_t blocks(const EngineState& e, std::int64_t tokens) {
  return (tokens + e.block_tokens - 1) / e.block_tokens;
}

// A policy written as a lambda, for the hostile ones.
class Lambda final : public SchedulerPolicy {
 public:
  using Fn = std::function<void(const EngineState&, const SchedulerQueues&, SchedulerDecision&)>;
  explicit Lambda(Fn f, std::int64_t route = -1) : f_(std::move(f)), route_(route) {}
  void schedule(const EngineState& e, const SchedulerQueues& q, SchedulerDecision& out) const override {
    f_(e, q, out);
  }
  std::int64_t route(const SchedSequence&, const ReplicaLoads&) const override { return route_; }

 private:
  Fn f_;
  std::int64_t route_;
};

StreamSpec poisson(double rate, std::uint64_t n) {
  StreamSpec s;
  s.arrival.kind = ArrivalKind::poisson;
  s.arrival.rate_per_s = rate;
  s.input.kind = LengthKind::uniform;
  s.input.min = 50;
  s.input.max = 400;
  s.output.kind = LengthKind::uniform;
  s.output.min = 5;
  s.output.max = 60;
  s.requests = n;
  s.warmup = n / 10;
  s.seed = 7;
  return s;
}

SimResult simulate_with(const StreamSpec& s, SimOptions o, const SchedulerPolicy* p) {
  o.limits.policy = p;
  test::FakeTimer timer;
  return simulate(s, timer, o);
}

}  // namespace

TEST_CASE("a policy written through the interface runs as the built-in rules it writes") {
  const StreamSpec s = poisson(40, 600);
  SimOptions o = test::roomy();
  o.limits.token_budget = 512;
  o.replicas = 2;
  const test::FcfsPolicy fcfs;
  const SimResult built_in = simulate_with(s, o, nullptr);
  const SimResult plugin = simulate_with(s, o, &fcfs);
  REQUIRE(built_in.preemptions == 0);
  CHECK(plugin.iterations == built_in.iterations);
  CHECK(plugin.end_s == built_in.end_s);
  for (std::size_t k = 0; k < built_in.ttft.percentile.size(); ++k) {
    CHECK(plugin.ttft.percentile[k] == built_in.ttft.percentile[k]);
    CHECK(plugin.tpot.percentile[k] == built_in.tpot.percentile[k]);
  }
}

TEST_CASE("priority classes reach the policy - drawn from their own stream of the seed") {
  StreamSpec s = poisson(10, 2000);
  StreamSpec classed = s;
  classed.priorities = {{0, 1}, {3, 3}};
  RequestStream plain(s), with(classed);
  Request a, b;
  std::map<std::int64_t, int> count;
  while (plain.next(a) && with.next(b)) {
    CHECK(a.arrival_s == b.arrival_s);  // arrivals and lengths do not move
    CHECK(a.input == b.input);
    CHECK(a.priority == 0);
    ++count[b.priority];
  }
  REQUIRE(count.size() == 2);
  CHECK(count[0] == Approx(500).margin(60));
  CHECK(count[3] == Approx(1500).margin(60));
  // And the policy sees them.
  std::int64_t seen = -1;
  const Lambda look([&](const EngineState&, const SchedulerQueues& q, SchedulerDecision& out) {
    if (q.waiting_count() > 0) {
      seen = std::max(seen, q.waiting(0).priority);
      out.admit(0, q.waiting(0).need());
    }
    for (std::size_t i = 0; i < q.running_count(); ++i) out.run(i, q.running(i).need());
  });
  StreamSpec small = classed;
  small.requests = 40;
  small.warmup = 0;
  SimOptions o = test::roomy();
  o.limits.max_sequences = 64;
  o.limits.token_budget = 0;
  simulate_with(small, o, &look);
  CHECK(seen == 3);
}

TEST_CASE("a policy's decision the engine cannot run is the scheduler's error") {
  const StreamSpec s = trace_of({{0, 100, 3, -1}, {0, 100, 3, -1}, {0.001, 50, 2, -1}});
  SimOptions o = test::roomy();
  using Q = const SchedulerQueues&;
  using D = SchedulerDecision&;
  using E = const EngineState&;
  const auto fails = [&](const SchedulerPolicy& p, const char* what, SimOptions opts) {
    CHECK_THROWS_WITH(simulate_with(s, opts, &p), Catch::Contains("scheduler") && Catch::Contains(what));
  };
  fails(Lambda([](E, Q q, D out) { out.admit(q.waiting_count(), 1); }), "names no request", o);
  fails(Lambda([](E, Q q, D out) { out.run(q.running_count() + 2, 1); }), "names no request", o);
  fails(Lambda([](E, Q q, D out) {
          if (q.waiting_count() > 0) {
            out.admit(0, 1);
            out.admit(0, 1);
          }
        }),
        "a second time", o);
  fails(Lambda([](E, Q q, D out) {
          if (q.waiting_count() > 0) out.admit(0, q.waiting(0).need() + 1);
        }),
        "it needs 1 to", o);
  fails(Lambda([](E, Q q, D out) {
          for (std::size_t j = 0; j < q.waiting_count(); ++j) out.admit(j, q.waiting(j).need());
        }),
        "beyond the batched-token limit", [&] {
          SimOptions t = o;
          t.limits.token_budget = 150;
          return t;
        }());
  fails(Lambda([](E, Q q, D out) {
          for (std::size_t j = 0; j < q.waiting_count(); ++j) out.admit(j, q.waiting(j).need());
        }),
        "beyond the limit", [&] {
          SimOptions t = o;
          t.limits.max_sequences = 1;
          return t;
        }());
  fails(Lambda([](E, Q q, D out) {
          for (std::size_t j = 0; j < q.waiting_count(); ++j) out.admit(j, q.waiting(j).need());
        }),
        "admits beyond the KV capacity", [&] {
          SimOptions t = o;
          t.limits.kv_blocks = 10;  // 160 tokens: one 100-token prompt
          return t;
        }());
  fails(Lambda([](E, Q, D) {}), "ran nothing", o);
  fails(Lambda(
            [](E, Q q, D out) {
              if (q.waiting_count() > 0) out.admit(0, q.waiting(0).need());
            },
            5),
        "route returned replica 5", o);
  fails(Lambda([](E, Q q, D out) {
          if (q.running_count() > 0)
            out.preempt(0);
          else if (q.waiting_count() > 0)
            out.admit(0, q.waiting(0).need());
        }),
        "never preempts", [&] {
          SimOptions t = o;
          t.limits.preemption = Preemption::no_evict;
          return t;
        }());
}

TEST_CASE("a decision that only preempts is asked again with the blocks it freed") {
  // 4 blocks of 4 tokens; two requests whose decodes outgrow the KV. The policy preempts the last
  // running sequence whenever a running one needs a block and none is free, else runs them all
  // and admits: without the second asking the replica would idle with its work (an error).
  const Lambda policy([](const EngineState& e, const SchedulerQueues& q, SchedulerDecision& out) {
    std::int64_t need = 0;
    for (std::size_t i = 0; i < q.running_count(); ++i)
      need += blocks(e, q.running(i).computed + 1) - q.running(i).blocks;
    if (need > e.free_blocks && q.running_count() > 0) {
      out.preempt(q.running_count() - 1);
      return;
    }
    std::int64_t free = e.free_blocks - need;
    for (std::size_t i = 0; i < q.running_count(); ++i) out.run(i, q.running(i).need());
    auto running = static_cast<std::int64_t>(q.running_count());
    for (std::size_t j = 0; j < q.waiting_count() && running < e.max_sequences; ++j) {
      const std::int64_t more = blocks(e, q.waiting(j).need()) - q.waiting(j).blocks;
      if (more > free) break;
      out.admit(j, q.waiting(j).need());
      free -= more;
      ++running;
    }
  });
  SimOptions o = test::roomy();
  o.limits.kv_blocks = 4;
  o.limits.block_tokens = 4;
  const SimResult r = simulate_with(trace_of({{0, 7, 6, -1}, {0, 5, 6, -1}}), o, &policy);
  CHECK(r.preemptions >= 1);
  CHECK(r.ttft.count == 2);
}

TEST_CASE("a policy's decode tokens are outside the limit where the engine's rules leave them") {
  // SGLang counts a prefill batch's prompt tokens: a policy running every decode beside a chunk
  // of the whole budget is within it there, beyond it under vLLM's count.
  const Lambda greedy([](const EngineState& e, const SchedulerQueues& q, SchedulerDecision& out) {
    std::int64_t budget = e.token_budget;
    for (std::size_t i = 0; i < q.running_count(); ++i) {
      const SchedSequence& s = q.running(i);
      const bool decode = s.need() == 1 && s.computed >= s.input;
      const std::int64_t n = decode ? 1 : std::min(s.need(), budget);
      if (n <= 0) continue;
      out.run(i, n);
      if (!decode) budget -= n;
    }
    for (std::size_t j = 0; j < q.waiting_count() && budget > 0 &&
                            static_cast<std::int64_t>(q.running_count() + j) < e.max_sequences;
         ++j) {
      const std::int64_t n = std::min(q.waiting(j).need(), budget);
      out.admit(j, n);
      budget -= n;
    }
  });
  const StreamSpec s = trace_of({{0, 50, 20, -1}, {0, 50, 20, -1}, {0.05, 400, 2, -1}});
  SimOptions sglang = test::roomy();
  sglang.limits.token_budget = 100;
  sglang.limits.rules.budget = BudgetCounts::prefill;
  CHECK_NOTHROW(simulate_with(s, sglang, &greedy));
  SimOptions vllm = sglang;
  vllm.limits.rules.budget = BudgetCounts::all;
  CHECK_THROWS_WITH(simulate_with(s, vllm, &greedy), Catch::Contains("beyond the batched-token limit 100"));
}

TEST_CASE("a policy that preempts what it runs over and over is stopped as its error") {
  // Each iteration preempts the running chunk and admits it again: no token is ever sampled. The
  // replica stops after 100,000 + 4 x (400 + 2) iterations without one (docs/limits.md).
  const Lambda loop([](const EngineState& e, const SchedulerQueues& q, SchedulerDecision& out) {
    for (std::size_t i = 0; i < q.running_count(); ++i) out.preempt(i);
    if (q.waiting_count() > 0) out.admit(0, std::min(q.waiting(0).need(), e.token_budget));
  });
  SimOptions o = test::roomy();
  o.limits.token_budget = 100;
  CHECK_THROWS_WITH(simulate_with(trace_of({{0, 400, 2, -1}}), o, &loop),
                    Catch::Contains("no token sampled in 101609 iterations of replica 0"));
}

TEST_CASE("a request SGLang's reservation can never admit is refused - and nothing measured meets no SLO") {
  // 10 blocks of 16 tokens: 100 + 60 fit the KV exactly, but SGLang admits only when the prompt
  // and output are below the room (PrefillAdder: NO_TOKEN at >=): refused, not left waiting.
  SimOptions o = test::roomy();
  o.limits.kv_blocks = 10;
  o.limits.rules.admission = Admission::reserve_output;
  o.slo = {SloTarget{SloLatency::ttft, 99, 1.0, {}}};
  test::FakeTimer timer;
  const SimResult r = simulate(trace_of({{0, 100, 60, -1}}), timer, o);
  CHECK(r.rejected == 1);
  REQUIRE(r.slo.size() == 1);
  CHECK_FALSE(r.slo_met());                      // no request finished: the target is not met
  o.limits.rules.admission = Admission::blocks;  // vLLM admits it
  const SimResult v = simulate(trace_of({{0, 100, 60, -1}}), timer, o);
  CHECK(v.rejected == 0);
  CHECK(v.slo_met());
}
