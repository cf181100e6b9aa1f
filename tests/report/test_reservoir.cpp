// core/statistics/reservoir.hpp: the seeded sample behind --json's `points`.
#include <catch2/catch.hpp>

#include "core/statistics/reservoir.hpp"

using tessera::Reservoir;

TEST_CASE("reservoir keeps every item of a stream no longer than its capacity") {
  Reservoir<int> r(5);
  for (int i = 0; i < 5; ++i) r.offer(i);
  CHECK(r.seen() == 5);
  CHECK_FALSE(r.sampled());
  CHECK(r.items() == std::vector<int>{0, 1, 2, 3, 4});
}

TEST_CASE("reservoir samples a longer stream to its capacity and says so") {
  Reservoir<int> r(3);
  for (int i = 0; i < 1000; ++i) r.offer(i);
  CHECK(r.seen() == 1000);
  CHECK(r.sampled());
  REQUIRE(r.items().size() == 3);
  // Algorithm R over 1000 items keeps the first 3 with probability (3/1000)... in all: the
  // sample is not the stream's head.
  CHECK(r.items() != std::vector<int>{0, 1, 2});
  for (int v : r.items()) CHECK((v >= 0 && v < 1000));
}

TEST_CASE("reservoir gives the same sample for the same seed and another for another seed") {
  Reservoir<int> a(10), b(10), c(10, 12345);
  for (int i = 0; i < 10000; ++i) {
    a.offer(i);
    b.offer(i);
    c.offer(i);
  }
  CHECK(a.items() == b.items());
  CHECK(a.items() != c.items());
}

TEST_CASE("reservoir of capacity zero keeps nothing and counts everything") {
  Reservoir<int> r(0);
  for (int i = 0; i < 7; ++i) r.offer(i);
  CHECK(r.items().empty());
  CHECK(r.seen() == 7);
  CHECK(r.sampled());
}

TEST_CASE("reservoir sample is close to uniform") {
  // 20000 streams of 100 items, capacity 10: each item is kept with probability 0.1, so each
  // position's count is 2000 +- 3 sigma (sigma = sqrt(20000 * 0.1 * 0.9) = 42.4).
  std::vector<int> kept(100, 0);
  for (std::uint64_t seed = 1; seed <= 20000; ++seed) {
    Reservoir<int> r(10, seed);
    for (int i = 0; i < 100; ++i) r.offer(i);
    for (int v : r.items()) ++kept[static_cast<std::size_t>(v)];
  }
  for (int k : kept) CHECK((k > 2000 - 130 && k < 2000 + 130));
}
