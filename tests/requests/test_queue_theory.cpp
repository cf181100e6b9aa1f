// The simulator against queueing theory (docs/physics.md §12.5): one slot, deterministic service
// and Poisson arrivals is an M/D/1 queue, whose mean wait is Pollaczek-Khinchine's
// W_q = ρ S / (2 (1 − ρ)) (Kleinrock, "Queueing Systems" vol. 1, §5.7). Five fixed seeds at
// utilisation 0.5 and 0.8: the simulated mean queueing delay is within its 99 % batch-means
// interval of the formula, and within 2 % at 0.5. At low load the TTFT is the prefill time.
#include <catch2/catch.hpp>
#include <cmath>

#include "analysis/requests/request_sim.hpp"
#include "core/statistics/quantiles.hpp"
#include "fake_timer.hpp"

using namespace tessera;
using namespace tessera::requests;

namespace {

constexpr double kService = 0.1;  // s: every request one iteration (a prefill, one output token)

SimResult md1(double rho, std::uint64_t seed) {
  StreamSpec s;
  s.arrival.rate_per_s = rho / kService;
  s.requests = 200000;
  s.warmup = 2000;
  s.seed = seed;
  s.input.value = 100;
  s.output.value = 1;
  SimOptions o;
  o.limits.max_sequences = 1;
  o.limits.token_budget = 0;
  o.limits.kv_blocks = 100;
  o.limits.block_tokens = 16;
  test::ConstantTimer timer(kService);
  return simulate(s, timer, o);
}

}  // namespace

TEST_CASE("one slot with deterministic service matches the M/D/1 mean wait") {
  for (const double rho : {0.5, 0.8}) {
    const double wq = rho * kService / (2 * (1 - rho));
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      const SimResult r = md1(rho, seed);
      // The 95 % half-width scaled to 99 %: t(19, 0.995) / t(19, 0.975).
      const double hw99 = r.queue.mean_half_width * student_t(19, 0.995) / student_t(19, 0.975);
      INFO("rho " << rho << ", seed " << seed << ": simulated " << r.queue.mean << " s +- " << hw99
                  << ", theory " << wq << " s");
      CHECK(std::abs(r.queue.mean - wq) <= hw99);
      if (rho == 0.5) CHECK(std::abs(r.queue.mean - wq) <= 0.02 * wq);
      // Throughput is the arrival rate below saturation.
      CHECK(r.requests_per_s == Approx(rho / kService).epsilon(0.01));
      // TTFT = wait + service.
      CHECK(r.ttft.mean == Approx(r.queue.mean + kService).epsilon(1e-9));
    }
  }
}

TEST_CASE(
    "at low load a request's TTFT is its prefill time and saturated the slot serves one per service time") {
  StreamSpec s;
  s.arrival.kind = ArrivalKind::constant;
  s.arrival.rate_per_s = 1;  // one request a second, 20 ms of work each
  s.requests = 50;
  s.input.value = 100;
  s.output.value = 1;
  SimOptions o;
  o.limits.max_sequences = 1;
  o.limits.kv_blocks = 100;
  o.exact = true;
  test::FakeTimer timer;
  SimResult r = simulate(s, timer, o);
  CHECK(r.ttft.max == Approx(0.010 + 0.0001 * 100));
  CHECK(r.queue.max == 0);
  // Saturated: ten clients always waiting on the one slot, which then completes one request per
  // service time (20 ms); nine wait while one runs.
  s.arrival.kind = ArrivalKind::concurrency;
  s.arrival.concurrency = 10;
  s.requests = 5000;
  s.warmup = 500;
  r = simulate(s, timer, o);
  CHECK(r.requests_per_s == Approx(1 / 0.020).epsilon(0.005));
  CHECK(r.queue_depth_mean == Approx(9).epsilon(0.005));
}
