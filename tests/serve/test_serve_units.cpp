// The serving study as plan -> work units -> merge (docs/architecture.md "Studies: plan, work
// units, merge"): the shipped serving scenarios give the same counts, best, top N, frontier,
// closest miss, sampled points and --csv rows for every unit size, thread count and executor.
#include <catch2/catch.hpp>

#include "analysis/explore/serve_exploration.hpp"
#include "core/executor.hpp"
#include "reverse_executor.hpp"
#include "serve_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct Served {
  ServeResult result;
  std::vector<std::pair<std::uint64_t, std::string>> rows;  // key and reason, in order
};

Served served(const Session& session, std::uint64_t unit_size, unsigned threads,
              Executor* executor = nullptr) {
  Served s;
  ServeStudyOptions o;
  o.threads = threads;
  o.unit_size = unit_size;
  o.executor = executor;
  o.top = 9;
  o.points = 60;
  o.batch = 5;
  o.on_point = [&](const ServeRecord& r) { s.rows.emplace_back(r.key, r.reason); };
  s.result = run_serve_study(session, o);
  return s;
}

void same_record(const ServeRecord& a, const ServeRecord& b) {
  CHECK(a.key == b.key);
  CHECK(a.score == b.score);
  CHECK(a.metrics.ttft_s == b.metrics.ttft_s);
  CHECK(a.metrics.tpot_s == b.metrics.tpot_s);
  CHECK(a.reason == b.reason);
}

void require_same(const Served& a, const Served& b) {
  const ServeResult &x = a.result, &y = b.result;
  CHECK(x.counts.evaluated == y.counts.evaluated);
  CHECK(x.counts.runnable == y.counts.runnable);
  CHECK(x.counts.within_slo == y.counts.within_slo);
  CHECK(x.counts.invalid == y.counts.invalid);
  CHECK(x.counts.unsupported == y.counts.unsupported);
  CHECK(x.counts.kv_overflow == y.counts.kv_overflow);
  CHECK(x.counts.non_finite == y.counts.non_finite);
  CHECK(x.counts.slo_miss == y.counts.slo_miss);
  CHECK(x.best_tokens_per_s_per_pe == y.best_tokens_per_s_per_pe);
  REQUIRE(x.top.size() == y.top.size());
  for (std::size_t i = 0; i < x.top.size(); ++i) same_record(x.top[i], y.top[i]);
  REQUIRE(x.frontier.size() == y.frontier.size());
  for (std::size_t i = 0; i < x.frontier.size(); ++i) same_record(x.frontier[i], y.frontier[i]);
  REQUIRE(x.closest_miss.has_value() == y.closest_miss.has_value());
  if (x.closest_miss) same_record(*x.closest_miss, *y.closest_miss);
  CHECK(x.points_seen == y.points_seen);
  CHECK(x.points_sampled == y.points_sampled);
  REQUIRE(x.points.size() == y.points.size());
  for (std::size_t i = 0; i < x.points.size(); ++i) CHECK(x.points[i].key == y.points[i].key);
  CHECK(a.rows == b.rows);
}

void check_scenario(const Scenario& scenario) {
  Session session(scenario, registry());
  const Served whole = served(session, 1u << 30, 2);  // one unit
  REQUIRE(whole.result.counts.evaluated > 100u);
  REQUIRE(whole.rows.size() == whole.result.counts.evaluated);
  for (std::uint64_t unit : {1u, 13u, 100u}) {
    for (unsigned threads : {1u, 3u}) {
      INFO("unit size " << unit << ", " << threads << " threads");
      require_same(whole, served(session, unit, threads));
    }
  }
  ReverseExecutor reverse;
  require_same(whole, served(session, 17, 1, &reverse));
}

}  // namespace

TEST_CASE("the serving study gives the same result for every unit size thread count and executor",
          "[serve][units]") {
  const Scenario shipped = load("llama3.1-70b-serve-4k1k-h100.yaml");
  check_scenario(shipped);
  // A study with no point within its SLO: the closest miss merges exactly too.
  Scenario strict = shipped;
  strict.serving.slo.tpot_s = 1e-6;
  Session session(strict, registry());
  const Served none = served(session, 1u << 30, 2);
  REQUIRE(none.result.counts.within_slo == 0u);
  REQUIRE(none.result.closest_miss.has_value());
  require_same(none, served(session, 11, 3));
}

TEST_CASE("serving explore computes its hardware points as work units - the same for every executor",
          "[serve][units][explore]") {
  const Session session(load("llama3.1-70b-serve-4k1k-pair-parts-explore.yaml"), registry());
  const auto explored = [&](unsigned threads, Executor* executor) {
    ServeExploreOptions o;
    o.threads = threads;
    o.executor = executor;
    return explore_serving(session, o);
  };
  const ServeExploreResult one = explored(1, nullptr);
  REQUIRE(one.points.size() > 1u);
  ReverseExecutor reverse;
  for (const ServeExploreResult& other : {explored(3, nullptr), explored(1, &reverse)}) {
    REQUIRE(other.points.size() == one.points.size());
    for (std::size_t i = 0; i < one.points.size(); ++i) {
      INFO("point " << i);
      CHECK(other.points[i].values == one.points[i].values);
      CHECK(other.points[i].aggregated == one.points[i].aggregated);
      CHECK(other.points[i].best == one.points[i].best);
      CHECK(other.points[i].aggregated_machine == one.points[i].aggregated_machine);
      CHECK(other.points[i].disaggregated.has_value() == one.points[i].disaggregated.has_value());
    }
    CHECK(other.ranking == one.ranking);
  }
}
