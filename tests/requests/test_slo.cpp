// Percentile SLOs (docs/physics.md §12.5): `serving.slo` read as means or statistics
// (scenario/schemas/slo_spec.hpp), each target checked against the statistic it binds in a simulation
// (analysis/requests/slo_check.hpp), goodput's per-request bounds, and bad statistics refused
// where they are written.
#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "analysis/requests/request_sim.hpp"
#include "engine_fixture.hpp"
#include "fake_timer.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/error.hpp"
#include "tessera_build_paths.hpp"

using namespace tessera;
using namespace tessera::requests;

namespace {

Scenario with_slo(const std::string& slo) {
  const std::string src = TESSERA_SOURCE_DIR;
  const std::string text = "schema_version: 1\nkind: scenario\nname: slo\nmodel: " + src +
                           "/models/llama3.1-8b.yaml\nmachine: " + src +
                           "/machines/dgx-h100.yaml\nworkload: {mode: serve, input: 2K, output: 256}\n"
                           "serving:\n  slo: " +
                           slo + "\n";
  return load_scenario_text(text, "slo.yaml", src, LoadOptions{});
}

std::string slo_error(const std::string& slo) {
  try {
    with_slo(slo);
  } catch (const InputErrors& e) {
    return e.diagnostics().front().format();
  }
  return "no error";
}

// The three requests of test_engine.cpp's hand timeline: TTFT 20, 46 and 15 ms; E2E 63, 58 and
// 15 ms; TPOT (two tokens or more) 21.5 and 12 ms; the window 0 to 1.015 s.
SimResult three_requests(std::vector<SloTarget> slo) {
  const StreamSpec s = test::trace_of({{0, 100, 3, -1}, {0.005, 200, 2, -1}, {1.0, 50, 1, -1}});
  SimOptions o = test::roomy();
  o.slo = std::move(slo);
  test::FakeTimer timer;
  return simulate(s, timer, o);
}

SloTarget target(SloLatency m, double percentile, double limit_s) {
  return SloTarget{m, percentile, limit_s, {}};
}

}  // namespace

TEST_CASE("plain SLO times bind means and mappings bind their statistics") {
  const Scenario plain = with_slo("{ttft: 1 s, tpot: 50 ms}");
  REQUIRE(plain.serving.slo.targets.size() == 2);
  CHECK(plain.serving.slo.targets[0].is_mean());
  CHECK_FALSE(plain.serving.slo.has_percentiles());
  CHECK(plain.serving.slo.ttft_s == Approx(1.0));
  CHECK(plain.serving.slo.tpot_s == Approx(0.050));

  const Scenario p = with_slo("{ttft: {p99: 2 s, mean: 500 ms}, tpot: {p90: 50 ms}, e2e: {p99.9: 30 s}}");
  const ServingSlo& slo = p.serving.slo;
  REQUIRE(slo.targets.size() == 4);
  CHECK(slo.has_percentiles());
  CHECK(slo.targets[0].metric == SloLatency::ttft);
  CHECK(slo.targets[0].percentile == 99);
  CHECK(slo.targets[0].limit_s == Approx(2.0));
  CHECK(slo.targets[1].is_mean());
  CHECK(slo.targets[3].percentile == Approx(99.9));
  CHECK(slo_statistic_key(slo.targets[3]) == "p99.9");
  CHECK(slo_statistic_label(slo.targets[0]) == "P99");
  // The steady state binds each metric's tightest target.
  CHECK(slo.ttft_s == Approx(0.5));
  CHECK(slo.tpot_s == Approx(0.050));
  CHECK(slo.e2e_s == Approx(30.0));
}

TEST_CASE("percentile SLO targets are checked against the simulated statistic") {
  // TTFT sorted 15, 20, 46 ms: mean 27 ms, P90 20 + 0.8 x 26 = 40.8 ms.
  // TPOT 12 and 21.5 ms: P50 16.75 ms.
  const SimResult r =
      three_requests({target(SloLatency::ttft, 90, 0.040), target(SloLatency::ttft, 0, 0.030),
                      target(SloLatency::tpot, 50, 0.020), target(SloLatency::e2e, 99, 0.070)});
  REQUIRE(r.slo.size() == 4);
  CHECK(r.slo[0].value_s == Approx(0.0408));
  CHECK_FALSE(r.slo[0].met);
  CHECK(r.slo[1].value_s == Approx(0.027));
  CHECK(r.slo[1].met);
  CHECK(r.slo[2].value_s == Approx(0.01675));
  CHECK(r.slo[2].met);
  // E2E 15, 58, 63 ms: P99 58 + 0.98 x 5 = 62.9 ms.
  CHECK(r.slo[3].value_s == Approx(0.0629));
  CHECK(r.slo[3].met);
  CHECK_FALSE(r.slo_met());
  // Goodput: a request meets each metric's highest-percentile bound (TTFT 40 ms, TPOT 20 ms,
  // E2E 70 ms): r1's TTFT (46 ms) and r0's TPOT (21.5 ms) miss; r2 alone is good.
  CHECK(r.request_bounds.ttft_s == Approx(0.040));
  CHECK(r.request_bounds.tpot_s == Approx(0.020));
  CHECK(r.request_bounds.e2e_s == Approx(0.070));
  CHECK(r.goodput_requests_per_s == Approx(1 / 1.015));
}

TEST_CASE("SLO filtering - the same simulation meets a looser percentile and misses a tighter one") {
  CHECK(three_requests({target(SloLatency::ttft, 90, 0.041)}).slo_met());
  CHECK_FALSE(three_requests({target(SloLatency::ttft, 90, 0.0407)}).slo_met());
  CHECK(three_requests({target(SloLatency::ttft, 50, 0.020)}).slo_met());
  CHECK_FALSE(three_requests({target(SloLatency::ttft, 50, 0.0199)}).slo_met());
  // Without targets nothing binds and every request is good.
  const SimResult none = three_requests({});
  CHECK(none.slo.empty());
  CHECK(none.slo_met());
  CHECK(none.goodput_requests_per_s == Approx(3 / 1.015));
}

TEST_CASE("per-request bounds take the highest percentile and the tighter of equals") {
  const RequestBounds b = request_bounds(
      {target(SloLatency::ttft, 0, 0.5), target(SloLatency::ttft, 99, 2.0), target(SloLatency::ttft, 90, 1.0),
       target(SloLatency::tpot, 0, 0.05), target(SloLatency::tpot, 0, 0.04)});
  CHECK(b.ttft_s == Approx(2.0));
  CHECK(b.tpot_s == Approx(0.04));
  CHECK(b.e2e_s == kNoSlo);
  CHECK(b.good(1.9, 0.04, 100, 10));
  CHECK_FALSE(b.good(2.1, 0.01, 1, 10));
  CHECK(b.good(1.0, 9.0, 1, 1));  // one output token: no TPOT
}

TEST_CASE("bad SLO statistics are refused where they are written") {
  // Text scenarios are located by their label (the files of tests/bad-inputs give line and column).
  CHECK(slo_error("{ttft: {p100: 2 s}}") ==
        "slo.yaml: error: serving.slo.ttft.p100: a percentile must lie in (0, 100), found 100");
  CHECK(slo_error("{ttft: {median: 1 s}}").find("expected a statistic, `mean` or a percentile") !=
        std::string::npos);
  CHECK(slo_error("{ttft: {median: 1 s}}").find("did you mean 'mean'") != std::string::npos);
  CHECK(slo_error("{ttft: {p99: 2}}").find("serving.slo.ttft.p99: expected") != std::string::npos);
  CHECK(slo_error("{ttft: {}}").find("an empty mapping") != std::string::npos);
}
