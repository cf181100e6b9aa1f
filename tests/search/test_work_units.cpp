// Studies as plan -> work units -> merge (docs/architecture.md "Studies: plan, work
// units, merge"): the executor merges in plan order whatever order the units finish in and
// reports the lowest failing unit; a separable search gives the same result (counts, records,
// best, top N, frontier, sampled points, the --csv stream) for every unit size, thread count and
// executor.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "analysis/explore/exploration.hpp"
#include "core/executor.hpp"
#include "reverse_executor.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct Run {
  SearchResult result;
  std::vector<std::uint64_t> streamed;  // on_record's configurations, as grid indices, in order
};

Run searched(const Session& s, std::uint64_t unit_size, unsigned threads, Executor* executor = nullptr,
             bool keep_records = false, const std::string& search = "exhaustive") {
  const auto strategy = registry().create_search(choice(search));
  Run run;
  SearchOptions o;
  o.threads = threads;
  o.unit_size = unit_size;
  o.executor = executor;
  o.keep_records = keep_records;
  o.points = 500;
  o.top = 7;
  o.on_record = [&](const ConfigRecord& r) {
    run.streamed.push_back(static_cast<std::uint64_t>(r.grid_index));
  };
  run.result = run_search(s, *strategy, o);
  return run;
}

void require_same(const Run& a, const Run& b) {
  const SearchResult &x = a.result, &y = b.result;
  CHECK(x.counts.enumerated == y.counts.enumerated);
  CHECK(x.counts.valid == y.counts.valid);
  CHECK(x.counts.evaluated == y.counts.evaluated);
  CHECK(x.counts.feasible == y.counts.feasible);
  CHECK(x.counts.non_finite == y.counts.non_finite);
  REQUIRE(x.records.size() == y.records.size());
  for (std::size_t i = 0; i < x.records.size(); ++i) {
    CHECK(x.records[i].key == y.records[i].key);
    CHECK(x.records[i].config == y.records[i].config);
    CHECK(x.records[i].score == y.records[i].score);
    CHECK(x.records[i].reason == y.records[i].reason);
  }
  CHECK(x.best == y.best);
  CHECK(x.top == y.top);
  CHECK(x.pareto == y.pareto);
  CHECK(x.points_seen == y.points_seen);
  CHECK(x.points_sampled == y.points_sampled);
  REQUIRE(x.points.size() == y.points.size());
  for (std::size_t i = 0; i < x.points.size(); ++i) {
    CHECK(x.points[i].key == y.points[i].key);
    CHECK(x.points[i].objectives == y.points[i].objectives);
  }
  CHECK(a.streamed == b.streamed);
}

}  // namespace

TEST_CASE("the thread executor merges in plan order and reports the lowest failing unit", "[units]") {
  ThreadExecutor executor(4);
  std::vector<std::size_t> merged;
  std::vector<int> computed(40, 0);
  executor.execute(
      40,
      [&](std::size_t u, const UnitSlot& slot) {
        CHECK(slot.worker < 4u);
        CHECK(slot.threads == 1u);
        // Early units finish last.
        std::this_thread::sleep_for(std::chrono::microseconds(u < 4 ? 2000 : 10));
        computed[u] = 1;
      },
      [&](std::size_t u) {
        CHECK(computed[u] == 1);
        merged.push_back(u);
      });
  REQUIRE(merged.size() == 40u);
  for (std::size_t u = 0; u < merged.size(); ++u) CHECK(merged[u] == u);

  // Unit 5 and unit 9 fail: unit 5's error comes back, nothing after the failure is merged.
  std::vector<std::size_t> merged2;
  try {
    executor.execute(
        30,
        [&](std::size_t u, const UnitSlot&) {
          if (u == 9) throw std::runtime_error("unit 9");
          if (u == 5) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
            throw std::runtime_error("unit 5");
          }
        },
        [&](std::size_t u) { merged2.push_back(u); });
    FAIL("no exception");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == "unit 5");
  }
  for (std::size_t u : merged2) CHECK(u < 5u);

  // Fewer units than threads: each unit gets the threads left over.
  std::atomic<unsigned> threads{0};
  executor.execute(
      2, [&](std::size_t, const UnitSlot& slot) { threads = slot.threads; }, [](std::size_t) {});
  CHECK(threads == 2u);
  // One unit runs on the calling thread with every thread.
  executor.execute(
      1, [&](std::size_t, const UnitSlot& slot) { threads = slot.threads; }, [](std::size_t) {});
  CHECK(threads == 4u);
}

TEST_CASE("the thread executor computes at most twice its workers ahead of the merge", "[units]") {
  ThreadExecutor executor(2);
  std::atomic<std::size_t> started{0};
  std::size_t most_ahead = 0;
  std::size_t merged = 0;
  executor.execute(
      50, [&](std::size_t, const UnitSlot&) { ++started; },
      [&](std::size_t) {
        if (merged == 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a slow first merge
        ++merged;
        most_ahead = std::max(most_ahead, started.load() - merged);
      });
  CHECK(merged == 50u);
  CHECK(most_ahead <= 4u);
}

TEST_CASE("a separable search gives the same result for every unit size thread count and executor",
          "[units][search]") {
  // The default scenario: 7331 valid configurations, the point sample full (500 of them kept).
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  Session s(sc, registry());
  const Run whole = searched(s, 1u << 30, 2);  // one unit
  REQUIRE(whole.result.counts.valid == 7331u);
  REQUIRE(whole.result.points_sampled);
  REQUIRE(whole.streamed.size() == whole.result.counts.evaluated);
  for (std::uint64_t unit : {1u, 7u, 1000u, 7330u}) {
    for (unsigned threads : {1u, 3u}) {
      INFO("unit size " << unit << ", " << threads << " threads");
      require_same(whole, searched(s, unit, threads));
    }
  }
  ReverseExecutor reverse;
  require_same(whole, searched(s, 64, 1, &reverse));
  // Each unit's outcome carried as bytes, as from a worker process (its codec: a unit summary's
  // Summary::save/load).
  ReverseExecutor remote(true);
  require_same(whole, searched(s, 64, 1, &remote));
  require_same(searched(s, 100, 2, nullptr, true), searched(s, 100, 1, &remote, true));
  // Every record kept: the same records in the same order.
  require_same(searched(s, 1u << 30, 2, nullptr, true), searched(s, 100, 2, nullptr, true));
}

TEST_CASE("a search that is not separable runs as one unit - in a worker process its outcome comes as bytes",
          "[units][search]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  Session s(sc, registry());
  ReverseExecutor remote(true);
  const Run here = searched(s, 0, 2, nullptr, false, "random");
  CHECK(here.result.counts.evaluated > 0u);
  require_same(here, searched(s, 0, 1, &remote, false, "random"));
  require_same(searched(s, 0, 2, nullptr, true, "random"), searched(s, 0, 1, &remote, true, "random"));
}

TEST_CASE("explore computes its hardware points as work units - the same for every executor",
          "[units][explore]") {
  const Scenario sc = load("deepseek-v3-decode-32k-hypothetical-explore.yaml");
  Session s(sc, registry());
  const auto st = registry().create_search(sc.plugins.search);
  const auto cost = registry().create_objective(choice("cost"));
  const auto explored = [&](unsigned threads, Executor* executor) {
    ExploreOptions o;
    o.search.threads = threads;
    o.search.top = 1;
    o.sensitivity = false;
    o.executor = executor;
    return explore_hardware(s, *st, *cost, o);
  };
  const ExploreResult one = explored(1, nullptr);
  REQUIRE(one.points.size() == 12u);
  ReverseExecutor reverse;
  for (const ExploreResult& other : {explored(3, nullptr), explored(2, &reverse)}) {
    REQUIRE(other.points.size() == one.points.size());
    for (std::size_t i = 0; i < one.points.size(); ++i) {
      INFO("point " << i);
      CHECK(other.points[i].values == one.points[i].values);
      CHECK(other.points[i].feasible == one.points[i].feasible);
      CHECK(other.points[i].best.config == one.points[i].best.config);
      CHECK(other.points[i].best.latency_s == one.points[i].best.latency_s);
      CHECK(other.points[i].cost == one.points[i].cost);
      CHECK(other.points[i].counts.evaluated == one.points[i].counts.evaluated);
    }
    CHECK(other.pareto == one.pareto);
  }
}
