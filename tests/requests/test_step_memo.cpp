// Memoized iteration times against exact ones on the host's StepTimer (the target: within
// 0.5 %): Llama-3.1-70B on TP8 H100, every iteration shape of a 4K/1K-like stream.
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis/requests/random_stream.hpp"
#include "analysis/requests/request_sim.hpp"
#include "analysis/requests/step_memo.hpp"
#include "eval/host_step_timer.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::requests;

TEST_CASE("the shape grid snaps sizes by at most 0.2 percent") {
  CHECK(snap(0) == 0);
  CHECK(snap(255) == 255);
  CHECK(snap(256) == 256);
  CHECK(snap(257) == 257);
  CHECK(snap(513) == 514);  // steps of 2 from 512
  CHECK(snap(4097) == 4096);
  CHECK(snap(4105) == 4112);
  for (std::int64_t x = 1; x < 200000; x += 7)
    CHECK(std::abs(static_cast<double>(snap(x) - x)) <= 0.002 * static_cast<double>(x));
}

TEST_CASE("memoized iteration times are within 0.5 percent of exact ones on H100 TP8") {
  const Scenario sc = test::load("llama3.1-70b-decode-4k-h100.yaml");
  const Session session(sc, test::registry());
  const Evaluator& ev = session.evaluator();
  ParallelConfig c;
  c.tp = 8;
  Evaluation holder, scratch;
  ev.layout_for(c, holder);
  REQUIRE(holder.layout.valid);
  HostStepTimer timer(ev, c, holder.layout, scratch);
  StepMemo memo(timer), exact(timer, false);
  RandomStream rng(3);
  double worst = 0;
  for (int i = 0; i < 400; ++i) {
    IterationShape s;
    s.decodes = static_cast<std::int64_t>(rng.next() % 256);
    s.decode_context = 4096 + 1024 * rng.uniform();
    s.prompts = s.decodes == 0 ? 1 : static_cast<std::int64_t>(rng.next() % 3);
    s.chunk_tokens = 1 + static_cast<std::int64_t>(rng.next() % 8192);
    s.chunk_prefix = static_cast<std::int64_t>(rng.next() % 4096);
    s.last = rng.next() % 2 == 0;
    const double a = memo.time(s), b = exact.time(s);
    worst = std::max(worst, std::abs(a - b) / b);
  }
  INFO("worst relative difference " << worst);
  CHECK(worst <= 0.005);
  CHECK(worst > 0);  // snapping moved some shape
  // A whole simulation, memoized and not: the means and medians agree within 0.5 %. (Its tail
  // may differ by more: a time moved by 0.1 % can move an arrival to the other side of an
  // iteration's start, and one request's fate changes the P99 of 270.)
  StreamSpec st;
  st.requests = 300;
  st.warmup = 30;
  st.arrival.rate_per_s = 2;
  st.input.kind = LengthKind::lognormal;
  st.input.median = 4096;
  st.input.sigma = 0.3;
  st.input.max = 16384;
  st.output.kind = LengthKind::lognormal;
  st.output.median = 256;
  st.output.sigma = 0.5;
  st.output.max = 2048;
  SimOptions o;
  o.limits.kv_blocks = 40000;
  o.exact = true;
  const SimResult m = simulate(st, timer, o);
  o.memoize = false;
  const SimResult e = simulate(st, timer, o);
  for (const auto& [x, y] : {std::pair{m.ttft, e.ttft}, std::pair{m.tpot, e.tpot}, std::pair{m.itl, e.itl}}) {
    CHECK(x.mean == Approx(y.mean).epsilon(0.005));
    CHECK(x.percentile[0] == Approx(y.percentile[0]).epsilon(0.005));
  }
  CHECK(m.step_shapes < 20000);
}
