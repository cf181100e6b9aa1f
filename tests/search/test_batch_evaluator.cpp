// The one parallel evaluator of the engine (eval/batch_evaluator.hpp), used by the search
// driver and compare: every index once, slot i the same for any thread count, a thread's
// exception rethrown, a cancelled run abandoned.
#include <catch2/catch.hpp>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/cancellation.hpp"
#include "eval/batch_evaluator.hpp"
#include "eval/grid_space.hpp"
#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("the batch evaluator runs every index once - for any size and thread count", "[batch]") {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    BatchEvaluator be(threads);
    CHECK(be.threads() == threads);
    for (std::size_t n : std::vector<std::size_t>{0, 1, 31, 32, 33, 1000, 4097}) {
      INFO("threads " << threads << ", n " << n);
      std::vector<std::atomic<int>> seen(n);
      std::size_t last_done = 0;
      bool monotonic = true;
      const auto caller = std::this_thread::get_id();
      bool on_caller = true;
      be.run(
          n,
          [&](std::size_t begin, std::size_t end, Evaluation&) {
            CHECK(end - begin <= BatchEvaluator::kChunk);
            for (std::size_t i = begin; i < end; ++i) seen[i].fetch_add(1);
          },
          [&](std::size_t d) {
            on_caller = on_caller && std::this_thread::get_id() == caller;
            monotonic = monotonic && d >= last_done && d <= n;
            last_done = d;
          });
      std::size_t once = 0;
      for (auto& s : seen) once += s.load() == 1;
      CHECK(once == n);
      CHECK(monotonic);
      CHECK(on_caller);
      if (threads == 1) CHECK(last_done == n);  // the calling thread did every chunk
    }
  }
}

TEST_CASE("the batch evaluator's slots equal a serial evaluation - for any thread count", "[batch]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  Session s(sc, registry());
  const GridSpace g(sc.sweep, s.model(), s.machine(), s.workload());
  const auto& configs = g.valid_configs();
  REQUIRE(configs.size() > 1000);
  std::vector<double> serial(configs.size());
  Evaluation e;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    s.evaluator().evaluate(configs[i], e);
    serial[i] = e.valid ? e.totals.latency_s : -1;
  }
  for (unsigned threads : {1u, 4u}) {
    BatchEvaluator be(threads);
    std::vector<double> out(configs.size(), -2);
    be.run(configs.size(), [&](std::size_t begin, std::size_t end, Evaluation& buf) {
      for (std::size_t i = begin; i < end; ++i) {
        s.evaluator().evaluate(configs[i], buf);
        out[i] = buf.valid ? buf.totals.latency_s : -1;
      }
    });
    INFO("threads " << threads);
    CHECK(out == serial);
  }
}

TEST_CASE("the batch evaluator rethrows a thread's exception and abandons a cancelled run", "[batch]") {
  BatchEvaluator be(4);
  std::atomic<std::size_t> chunks{0};
  CHECK_THROWS_WITH(be.run(10000,
                           [&](std::size_t begin, std::size_t end, Evaluation&) {
                             ++chunks;
                             if (begin <= 5000 && 5000 < end) throw std::runtime_error("index 5000");
                           }),
                    "index 5000");
  clear_cancellation();
  chunks = 0;
  request_cancellation();
  be.run(10000, [&](std::size_t, std::size_t, Evaluation&) { ++chunks; });
  CHECK(chunks.load() == 0);
  clear_cancellation();
}

TEST_CASE("the batch evaluator's pool serves many runs of changing sizes in a row", "[batch]") {
  BatchEvaluator be(6);
  std::vector<std::size_t> sizes;
  for (std::size_t i = 0; i < 400; ++i) sizes.push_back((i * 37) % 300);  // 0 .. 299: 1 to 6 threads
  std::size_t mismatches = 0;
  for (std::size_t n : sizes) {
    std::atomic<std::size_t> sum{0};
    be.run(n, [&](std::size_t begin, std::size_t end, Evaluation&) {
      for (std::size_t i = begin; i < end; ++i) sum.fetch_add(i + 1);
    });
    mismatches += sum.load() != n * (n + 1) / 2;
  }
  CHECK(mismatches == 0);
}
