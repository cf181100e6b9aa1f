// The studies as data (analysis/explore/exploration.hpp, analysis/search/sensitivity.hpp): explore's points
// are the search at each hardware point and its frontier the latency/cost Pareto set of them;
// the sensitivity study's best is the search's best; both the same for any thread count.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "analysis/explore/exploration.hpp"
#include "analysis/search/sensitivity.hpp"
#include "core/statistics/pareto.hpp"
#include "scenario/sweeps/hardware_points.hpp"
#include "search_fixture.hpp"
#include "tessera/error.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

ExploreResult explore(const Session& s, const SearchStrategy& st, const Objective& cost, unsigned threads,
                      bool sensitivity) {
  ExploreOptions o;
  o.search.threads = threads;
  o.search.top = 1;
  o.sensitivity = sensitivity;
  return explore_hardware(s, st, cost, o);
}

}  // namespace

TEST_CASE("explore: each point is the search at that machine - the frontier is their latency-cost Pareto set",
          "[explore]") {
  const Scenario sc = load("deepseek-v3-decode-32k-hypothetical-explore.yaml");
  Session s(sc, registry());
  const auto st = registry().create_search(sc.plugins.search);
  const auto cost = registry().create_objective(choice("cost"));
  std::size_t progress_calls = 0;
  ExploreOptions o;
  o.search.threads = 2;
  o.search.top = 1;
  o.sensitivity = false;
  o.on_progress = [&](const ProgressEvent& e) {
    CHECK(std::string(e.phase) == "hardware points");
    CHECK(e.total == 12);
    CHECK(e.done == progress_calls++);
  };
  const ExploreResult r = explore_hardware(s, *st, *cost, o);
  CHECK(progress_calls == 13);     // 0 of 12, then after each point
  REQUIRE(r.points.size() == 12);  // 3 HBM bandwidths x 4 domain link bandwidths
  CHECK(r.hardware.empty());
  std::vector<double> values;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    INFO("point " << i + 1);
    const ExplorePoint& p = r.points[i];
    const HardwarePoint hp = hardware_point(sc.sweep, s.machine(), i);
    CHECK(p.values == hp.values);
    const auto at = s.with_machine(hp.machine);
    SearchOptions so;
    so.threads = 1;
    so.top = 1;
    const SearchResult sr = run_search(*at, *st, so);
    CHECK(p.counts.evaluated == sr.counts.evaluated);
    REQUIRE(p.feasible == sr.best.has_value());
    if (p.feasible) {
      CHECK(p.best.config == sr.records[*sr.best].config);
      CHECK(p.best.latency_s == sr.records[*sr.best].latency_s);
      CHECK(p.cost > 0);
    }
    values.push_back(p.feasible ? p.best.latency_s : NAN);
    values.push_back(p.cost);
  }
  const std::vector<Direction> dirs{Direction::minimize, Direction::minimize};
  CHECK(r.pareto == pareto_front(values, 2, dirs));
  REQUIRE(!r.pareto.empty());
  for (std::size_t i = 0; i < r.points.size(); ++i)
    CHECK(r.on_pareto(i) == (std::find(r.pareto.begin(), r.pareto.end(), i) != r.pareto.end()));
  // The lowest latency of the grid is on the frontier.
  std::size_t fastest = 0;
  for (std::size_t i = 1; i < r.points.size(); ++i)
    if (r.points[i].best.latency_s < r.points[fastest].best.latency_s) fastest = i;
  CHECK(r.on_pareto(fastest));
}

TEST_CASE("explore and its hardware ranking are the same on 1 and 3 threads", "[explore]") {
  const Scenario sc = load("llama3.1-8b-decode-4k-h100.yaml");
  Session s(sc, registry());
  const auto st = registry().create_search(sc.plugins.search);
  const auto cost = registry().create_objective(choice("cost"));
  const ExploreResult a = explore(s, *st, *cost, 1, true), b = explore(s, *st, *cost, 3, true);
  REQUIRE(a.points.size() == 1);  // no sweep.hardware: the scenario's machine
  REQUIRE(b.points.size() == 1);
  CHECK(a.points[0].best.config == b.points[0].best.config);
  CHECK(a.points[0].cost == b.points[0].cost);
  CHECK(a.pareto == std::vector<std::size_t>{0});
  REQUIRE(!a.hardware.empty());
  REQUIRE(a.hardware.size() == b.hardware.size());
  for (std::size_t i = 0; i < a.hardware.size(); ++i) {
    INFO(a.hardware[i].path);
    CHECK(a.hardware[i].path == b.hardware[i].path);
    CHECK(a.hardware[i].latency_plus_reopt == b.hardware[i].latency_plus_reopt);
    CHECK(a.hardware[i].latency_minus_fixed == b.hardware[i].latency_minus_fixed);
  }
  CHECK(a.hardware.front().path == "machine.pe.hbm.bandwidth");  // decode at batch 1: memory-bound
}

TEST_CASE("the sensitivity study starts from the search's best and computes only what is asked",
          "[sensitivity]") {
  const Scenario sc = load("llama3.1-8b-decode-4k-h100.yaml");
  Session s(sc, registry());
  const auto st = registry().create_search(sc.plugins.search);
  SearchOptions so;
  so.threads = 2;
  so.top = 1;
  const SearchResult search = run_search(s, *st, so);
  REQUIRE(search.best);
  const SensitivityStudy par = sensitivity_study(s, *st, true, false, so);
  CHECK(par.best.config == search.records[*search.best].config);
  CHECK(par.best.latency_s == search.records[*search.best].latency_s);
  CHECK(par.has_parallelism);
  CHECK(!par.has_hardware);
  CHECK(par.hardware.empty());
  REQUIRE(par.parallelism.size() == 5);
  const char* knobs[] = {"cp", "tp", "pp", "dp", "ep"};
  for (std::size_t k = 0; k < 5; ++k) {
    CHECK(par.parallelism[k].knob == knobs[k]);
    CHECK(par.parallelism[k].records.size() == seed_sweep_values(knobs[k]).size());
  }
  CHECK(par.parallelism[1].baseline == par.best.config.tp);
  const SensitivityStudy hw = sensitivity_study(s, *st, false, true, so);
  CHECK(hw.parallelism.empty());
  CHECK(hw.has_hardware);
  CHECK(hw.hardware.size() == hardware_knobs(s).size());
}

TEST_CASE("the sensitivity study refuses a scenario where nothing is feasible", "[sensitivity]") {
  const Scenario sc = load("llama3.1-8b-decode-4k-h100.yaml", {"machine.pe.hbm.capacity=1 MB"});
  Session s(sc, registry());
  const auto st = registry().create_search(sc.plugins.search);
  CHECK_THROWS_WITH(sensitivity_study(s, *st, true, true, SearchOptions{}),
                    "no feasible configuration in scenario llama3.1-8b-decode-4k-h100: nothing to perturb");
}

// ExploreOptions::keep: the kept points are the N fastest and the latency/cost frontier of every
// point, in the grid's order, and every point still reaches on_point in the grid's order.
TEST_CASE("explore keeping the fastest N lists them and the frontier - every point streamed", "[explore]") {
  const Scenario sc = load("deepseek-v3-decode-32k-hypothetical-explore.yaml");
  Session s(sc, registry());
  const auto st = registry().create_search(sc.plugins.search);
  const auto cost = registry().create_objective(choice("cost"));
  const ExploreResult all = explore(s, *st, *cost, 2, false);
  REQUIRE(all.points.size() == 12);
  ExploreOptions o;
  o.search.threads = 2;
  o.search.top = 1;
  o.sensitivity = false;
  o.keep = 2;
  std::vector<std::uint64_t> streamed;
  o.on_point = [&](const ExplorePoint& p) { streamed.push_back(p.index); };
  const ExploreResult kept = explore_hardware(s, *st, *cost, o);
  CHECK(kept.total_points == 12);
  CHECK(streamed == std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  // Expected: the two fastest (latency, then cost, then the grid's order) and the frontier.
  std::vector<std::uint64_t> by_speed;
  for (const ExplorePoint& p : all.points)
    if (p.feasible) by_speed.push_back(p.index);
  std::sort(by_speed.begin(), by_speed.end(), [&](std::uint64_t a, std::uint64_t b) {
    const ExplorePoint &x = all.points[a], &y = all.points[b];
    if (x.best.latency_s != y.best.latency_s) return x.best.latency_s < y.best.latency_s;
    if (x.cost != y.cost) return x.cost < y.cost;
    return a < b;
  });
  std::vector<std::uint64_t> want(by_speed.begin(), by_speed.begin() + 2);
  for (std::size_t i : all.pareto) want.push_back(all.points[i].index);
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  std::vector<std::uint64_t> got, front;
  for (const ExplorePoint& p : kept.points) got.push_back(p.index);
  CHECK(got == want);
  CHECK(got.size() < 12);
  for (std::size_t i : kept.pareto) front.push_back(kept.points[i].index);
  std::vector<std::uint64_t> all_front;
  for (std::size_t i : all.pareto) all_front.push_back(all.points[i].index);
  CHECK(front == all_front);
  for (const ExplorePoint& p : kept.points) CHECK(p.best.latency_s == all.points[p.index].best.latency_s);
}
