// The capacity search (analysis/capacity/capacity_search.hpp, capacity_study.hpp, docs/physics.md
// §12.6): the bisection finds the capacity of a deterministic single-slot server, known in
// closed form; the capacity grows with a looser SLO; the finalists' capacities are the same at
// any thread count and unit size; `serve` without a search gives the document it gave before.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analysis/capacity/capacity_search.hpp"
#include "analysis/capacity/capacity_study.hpp"
#include "engine_fixture.hpp"
#include "fake_timer.hpp"
#include "search_fixture.hpp"
#include "studies/documents/capacity_document.hpp"
#include "studies/entries/serve_entry.hpp"

using namespace tessera;
using namespace tessera::requests;

namespace {

// Evenly spaced requests of 100 prompt and 10 output tokens into one replica of one sequence
// whose every iteration costs 10 ms: a request is served in S = 10 iterations = 0.1 s, so the
// server carries 1 / S = 10 requests/s; above it the queue grows by S − 1/λ a request.
constexpr double kService = 0.1;

StreamSpec evenly_spaced() {
  StreamSpec s;
  s.arrival.kind = ArrivalKind::constant;
  s.arrival.rate_per_s = 1;
  s.input.value = 100;
  s.output.value = 10;
  s.requests = 0;
  return s;
}

SloTarget slo_target(SloLatency metric, double percentile, double limit_s) {
  SloTarget t;
  t.metric = metric;
  t.percentile = percentile;
  t.limit_s = limit_s;
  return t;
}

CapacityProbeFn single_slot(std::vector<SloTarget> slo, double service_per_iteration = kService / 10) {
  return [slo, service_per_iteration](const StreamSpec& stream) {
    SimOptions o = test::roomy();
    o.limits.max_sequences = 1;
    o.exact = false;
    o.slo = slo;
    test::ConstantTimer timer(service_per_iteration);
    return simulate(stream, timer, o);
  };
}

// A replica of eight sequences with load-dependent iterations (FakeTimer) under Poisson
// arrivals: a queue that grows smoothly with the rate.
CapacityProbeFn batched(std::vector<SloTarget> slo) {
  return [slo](const StreamSpec& stream) {
    SimOptions o = test::roomy();
    o.exact = false;
    o.slo = slo;
    test::FakeTimer timer;
    return simulate(stream, timer, o);
  };
}

StreamSpec poisson_arrivals() {
  StreamSpec s = evenly_spaced();
  s.arrival.kind = ArrivalKind::poisson;
  s.seed = 7;
  return s;
}

}  // namespace

TEST_CASE("the bisection finds the closed-form capacity of a deterministic single-slot server") {
  // E2E P99 within 1.5 S: met with no queue (λ <= 1/S), missed as soon as the queue grows (the
  // P99-th of 5,500 requests waits ~5,000 (S − 1/λ), over 0.5 S once λ > 1.0001 / S).
  const std::vector<SloTarget> slo{slo_target(SloLatency::e2e, 99, 1.5 * kService)};
  const CapacitySettings settings;
  const double exact = 1 / kService;
  for (double start : {0.3 * exact, 4.0 * exact, exact}) {
    const Capacity c = search_capacity(evenly_spaced(), start, settings, single_slot(slo));
    INFO("start " << start);
    REQUIRE(c.found);
    CHECK(c.stop == CapacityStop::converged);
    CHECK(c.kind == LoadKind::rate);
    CHECK(c.load <= exact * 1.0001);
    CHECK(c.upper > exact);
    CHECK(c.upper / c.load - 1 <= settings.tolerance);
    CHECK(c.load >= exact / (1 + settings.tolerance));
    // At the capacity nothing waits: every request takes exactly S, at the offered rate.
    CHECK(c.at.e2e_p99_s == Approx(kService).epsilon(0.01));
    CHECK(c.at.requests_per_s == Approx(c.load).epsilon(0.01));
    CHECK(c.at.measured >= settings.min_requests);
    CHECK(c.probes.size() <= settings.max_probes);
  }
}

TEST_CASE("the bracket covers every load down to its floor and up to its ceiling") {
  const std::vector<SloTarget> slo{slo_target(SloLatency::e2e, 99, 1.5 * kService)};
  const CapacitySettings settings;
  const double exact = 1 / kService;
  // From 60 / S the steps down (÷1.25, ÷1.95, ÷4.77, ÷28.4) pass over 10; the last is cut to the
  // floor, 60/64 of 1/S, which meets the SLO.
  const Capacity low = search_capacity(evenly_spaced(), 60 * exact, settings, single_slot(slo));
  REQUIRE(low.found);
  CHECK(low.load <= exact * 1.0001);
  CHECK(low.upper / low.load - 1 <= settings.tolerance);
  bool floor_probed = false;
  for (const CapacityProbe& p : low.probes) floor_probed = floor_probed || p.load == Approx(60 * exact / 64);
  CHECK(floor_probed);
  // From 700 / S the floor is above the capacity: none met, the floor probed last.
  const Capacity none = search_capacity(evenly_spaced(), 700 * exact, settings, single_slot(slo));
  CHECK_FALSE(none.found);
  CHECK(none.stop == CapacityStop::none_met);
  CHECK(none.probes.back().load == Approx(700 * exact / 64));
  // Without an SLO the last step up is cut to the ceiling, which is probed and met.
  CapacitySettings small;
  small.min_requests = 500;
  const Capacity open = search_capacity(evenly_spaced(), 1, small, single_slot({}));
  REQUIRE(open.found);
  CHECK(open.stop == CapacityStop::ceiling);
  CHECK(open.load == Approx(small.max_factor));
}

TEST_CASE("a closed loop's capacity is found on whole clients") {
  // One sequence at a time: one client is served in S, two wait on each other (E2E 2 S).
  StreamSpec s = evenly_spaced();
  s.arrival.kind = ArrivalKind::concurrency;
  s.arrival.concurrency = 1;
  const std::vector<SloTarget> slo{slo_target(SloLatency::e2e, 99, 1.5 * kService)};
  for (double start : {6.0, 128.0}) {  // 128: the steps pass over 1 to 5, then the floor of one client
    INFO("start " << start);
    const Capacity c = search_capacity(s, start, CapacitySettings{}, single_slot(slo));
    REQUIRE(c.found);
    CHECK(c.kind == LoadKind::clients);
    CHECK(c.load == 1);
    CHECK(c.upper == 2);
    for (const CapacityProbe& p : c.probes) CHECK(p.load == std::round(p.load));
  }
}

TEST_CASE("capacity searches stop at the ceiling without an SLO and find none below an impossible one") {
  CapacitySettings settings;
  settings.min_requests = 500;
  const Capacity open = search_capacity(evenly_spaced(), 1, settings, single_slot({}));
  CHECK(open.found);
  CHECK(open.stop == CapacityStop::ceiling);
  CHECK(open.load <= settings.max_factor);
  // E2E below one service time: no load meets it.
  const Capacity none = search_capacity(evenly_spaced(), 10, settings,
                                        single_slot({slo_target(SloLatency::e2e, 99, 0.5 * kService)}));
  CHECK_FALSE(none.found);
  CHECK(none.stop == CapacityStop::none_met);
  CHECK(none.load == 0);
  for (const CapacityProbe& p : none.probes) CHECK_FALSE(p.met);
}

TEST_CASE("capacity is monotone in the SLO") {
  CapacitySettings settings;
  settings.min_requests = 2000;
  double before = 0;
  for (double limit : {0.05, 0.08, 0.12, 0.2, 0.4, 1.0, 3.0}) {
    const Capacity c =
        search_capacity(poisson_arrivals(), 20, settings, batched({slo_target(SloLatency::ttft, 99, limit)}));
    INFO("TTFT P99 <= " << limit << " s: capacity " << c.load);
    REQUIRE(c.found);
    CHECK(c.load >= before);
    before = c.load;
  }
  // And in each metric's: a looser TPOT target never lowers it either.
  before = 0;
  for (double limit : {0.012, 0.015, 0.02, 0.05}) {
    const Capacity c =
        search_capacity(poisson_arrivals(), 20, settings, batched({slo_target(SloLatency::tpot, 90, limit)}));
    INFO("TPOT P90 <= " << limit << " s: capacity " << c.load);
    if (c.found) {
      CHECK(c.load >= before);
      before = c.load;
    } else {
      CHECK(before == 0);
    }
  }
}

TEST_CASE("a trace that spans no time has no rate to scale") {
  const StreamSpec one = test::trace_of({{0.0, 100, 10, -1}});
  CHECK(offered_load(one) == 0);
  CHECK_THROWS_AS(search_capacity(one, 1, CapacitySettings{}, single_slot({})), InputError);
  const StreamSpec flat = test::trace_of({{5.0, 100, 10, -1}, {5.0, 100, 10, -1}});
  CHECK_THROWS_WITH(search_capacity(flat, 1, CapacitySettings{}, single_slot({})),
                    Catch::Contains("the trace spans no time"));
}

TEST_CASE("a trace's capacity replays it faster or slower") {
  std::vector<TraceRow> rows;
  for (int i = 0; i < 200; ++i) rows.push_back({0.5 * i, 100, 10, -1});  // 2 requests/s
  const StreamSpec trace = test::trace_of(rows);
  CHECK(offered_load(trace) == Approx(2.0));
  const StreamSpec fast = at_load(trace, 8);
  CHECK(fast.arrival.time_scale == Approx(4.0));
  CHECK(offered_load(fast) == Approx(8.0));
  // The rows the stream sends: its count cuts the trace (the first 100 rows, 2 requests/s,
  // whatever the rows after them).
  std::vector<TraceRow> longer = rows;
  for (TraceRow& r : longer)
    if (r.time_s >= 50) r.time_s = 50 + 10 * (r.time_s - 50);
  StreamSpec counted = test::trace_of(longer);
  counted.requests = 100;
  CHECK(offered_load(counted) == Approx(2.0));
  // The trace's 200 rows are all a probe can measure; the capacity is still the server's 1/S.
  CapacitySettings settings;
  const Capacity c =
      search_capacity(trace, 2, settings, single_slot({slo_target(SloLatency::e2e, 99, 1.5 * kService)}));
  REQUIRE(c.found);
  CHECK(c.load <= 10 * 1.01);
  CHECK(c.upper > 10);
}

namespace {

// Small probes (the search's logic, not its precision, is under test here).
// The shipped Poisson scenario, its best point simulated with 300 requests.
const studies::StudyContext& poisson_study() {
  static const studies::StudyContext study = [] {
    studies::ScenarioOptions so;
    so.path = test::scenario_path("llama3.1-70b-serve-4k1k-h100-poisson.yaml");
    so.load.set = {"serving.requests.count=300"};
    return studies::StudyContext(so, {}, studies::StudyKind::serve);
  }();
  return study;
}

studies::ServeStudyResult capacity_served(std::size_t top, unsigned threads, std::size_t unit) {
  const studies::StudyContext& study = poisson_study();
  studies::ServeOptions o;
  o.threads = threads;
  o.document = true;
  o.simulate_top = top;
  o.capacity.min_requests = 300;
  o.capacity.max_requests = 600;
  o.capacity_unit = unit;
  return studies::serve(study, o);
}

}  // namespace

TEST_CASE("the finalists' capacities are the same at any thread count and unit size") {
  const studies::ServeStudyResult one = capacity_served(4, 1, 1);
  REQUIRE(one.capacity);
  REQUIRE(one.capacity->finalists.size() == 4);
  const nlohmann::json& a = one.document.at("capacity");
  for (auto [threads, unit] : {std::pair<unsigned, std::size_t>{3, 2}, {2, 4}}) {
    const studies::ServeStudyResult other = capacity_served(4, threads, unit);
    INFO(threads << " threads, " << unit << " finalists a unit");
    CHECK(other.document.at("capacity") == a);
  }
  // Ranked by simulated tokens/s/PE, each finalist one of the analytical top 4, each rank once.
  std::vector<bool> seen(4, false);
  double last = INFINITY;
  for (const Finalist& f : one.capacity->finalists) {
    CHECK(f.tokens_per_s_per_pe <= last);
    last = f.tokens_per_s_per_pe;
    REQUIRE(f.analytical_rank >= 1);
    REQUIRE(f.analytical_rank <= 4);
    CHECK_FALSE(seen[f.analytical_rank - 1]);
    seen[f.analytical_rank - 1] = true;
    CHECK(f.capacity.found);
    CHECK(f.tokens_per_s_per_pe ==
          Approx(f.capacity.at.output_tokens_per_s / static_cast<double>(f.analytical.pes)));
    CHECK(f.difference == Approx(f.tokens_per_s_per_pe / f.analytical.tokens_per_s_per_pe - 1));
    CHECK(f.moved == (std::abs(static_cast<long>(f.simulated_rank) - static_cast<long>(f.analytical_rank)) >
                      static_cast<long>(kRankShiftFlag)));
  }
}

TEST_CASE("serve without a capacity search gives the document it gave before") {
  const studies::ServeStudyResult none = capacity_served(0, 2, 1);
  CHECK_FALSE(none.capacity);
  CHECK_FALSE(none.document.contains("capacity"));
  // A search of more finalists than the report's top N leaves the top N as it was.
  studies::ServeStudyResult searched = capacity_served(12, 2, 1);
  REQUIRE(searched.capacity);
  CHECK(searched.capacity->finalists.size() == 12);
  CHECK(searched.answer.aggregated.top.size() == none.answer.aggregated.top.size());
  searched.document.erase("capacity");
  CHECK(searched.document == none.document);
}

TEST_CASE("a tokens/s/user floor is checked as a mean TPOT target and named so where it binds") {
  ServingSlo slo;
  slo.min_tokens_per_s_per_user = 40;
  const std::vector<SloTarget> t = capacity_targets(slo);
  REQUIRE(t.size() == 1);
  CHECK(t[0].metric == SloLatency::tpot);
  CHECK(t[0].is_mean());
  CHECK(t[0].limit_s == Approx(0.025));
  // The shipped Poisson scenario with that floor alone: every probe checks it and names it; and
  // as the batch caps TPOT (a queue delays the first token, not the next ones), no load breaks it.
  studies::ScenarioOptions so;
  so.path = test::scenario_path("llama3.1-70b-serve-4k1k-h100-poisson.yaml");
  so.load.set = {"serving.slo={tokens_per_s_per_user: 40}", "serving.requests.count=300"};
  const studies::StudyContext study(so, {}, studies::StudyKind::serve);
  studies::ServeOptions o;
  o.threads = 2;
  o.document = true;
  o.simulate_top = 1;
  o.capacity.min_requests = 300;
  o.capacity.max_requests = 600;
  const studies::ServeStudyResult r = studies::serve(study, o);
  REQUIRE(r.capacity);
  const nlohmann::json& c = r.document.at("capacity");
  REQUIRE(c.at("targets").size() == 1);
  CHECK(c.at("targets")[0].at("name") == "TPOT mean");
  REQUIRE(r.capacity->finalists.size() == 1);
  const nlohmann::json& cap = c.at("finalists")[0].at("capacity");
  CHECK(cap.at("stop") == "ceiling");
  for (const nlohmann::json& p : cap.at("probes")) {
    CHECK(p.at("binding") == "TPOT mean");
    CHECK(p.at("binding_ratio").get<double>() < 1);
  }
  REQUIRE(r.simulated);  // the best point's simulation checks the same target
  REQUIRE(r.simulated->result.slo.size() == 1);
  CHECK(r.simulated->result.slo[0].target.limit_s == Approx(0.025));
}
