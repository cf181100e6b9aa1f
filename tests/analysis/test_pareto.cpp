// Pareto frontier: the fast routines equal the O(N²) reference on random sets with ties and
// duplicates, for 2-5 objectives and mixed directions.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "core/statistics/pareto.hpp"

using tessera::Direction;

namespace {

// Deterministic small-integer generator (no distribution objects: portable).
struct Gen {
  std::mt19937_64 rng;
  explicit Gen(std::uint64_t seed) : rng(seed) {}
  std::uint64_t below(std::uint64_t n) { return rng() % n; }
};

}  // namespace

TEST_CASE("pareto_front equals the brute-force reference on random sets", "[pareto]") {
  Gen g(12345);
  int sets = 0;
  for (int round = 0; round < 150; ++round) {
    const std::size_t k = 2 + g.below(4);  // 2..5
    const std::size_t n = round % 10 == 0 ? 5000 : 1 + g.below(round % 3 == 0 ? 2000 : 300);
    const std::uint64_t range = 1 + g.below(round % 2 ? 6 : 50);  // small ranges force ties
    std::vector<double> v(n * k);
    for (auto& x : v) x = static_cast<double>(g.below(range));
    // Duplicate some rows outright.
    for (std::size_t i = 1; i < n; i += 7)
      for (std::size_t j = 0; j < k; ++j) v[i * k + j] = v[(i - 1) * k + j];
    std::vector<Direction> dirs(k);
    for (auto& d : dirs) d = g.below(2) ? Direction::maximize : Direction::minimize;
    const bool use_feasible = round % 4 == 1;
    bool feasible_arr[5000];
    for (std::size_t i = 0; i < n; ++i) feasible_arr[i] = g.below(5) != 0;
    std::span<const bool> feasible =
        use_feasible ? std::span<const bool>(feasible_arr, n) : std::span<const bool>();
    const auto fast = tessera::pareto_front(v, k, dirs, feasible);
    const auto slow = tessera::pareto_front_bruteforce(v, k, dirs, feasible);
    INFO("round " << round << " n=" << n << " k=" << k << " range=" << range);
    REQUIRE(fast == slow);
    ++sets;
  }
  CHECK(sets >= 100);
}

TEST_CASE("pareto_front keeps identical points and orders output by index", "[pareto]") {
  const std::vector<double> v{1, 5, 1, 5, 2, 2, 3, 3, 1, 5, 0, 9};
  const std::vector<Direction> d{Direction::minimize, Direction::minimize};
  const auto f = tessera::pareto_front(v, 2, d);
  CHECK(f == std::vector<std::size_t>{0, 1, 2, 4, 5});
}

TEST_CASE("pareto_front honours directions and feasibility", "[pareto]") {
  // (latency ↓, efficiency ↑)
  const std::vector<double> v{1.0, 0.1, 2.0, 0.5, 3.0, 0.4, 0.5, 0.9};
  const std::vector<Direction> d{Direction::minimize, Direction::maximize};
  CHECK(tessera::pareto_front(v, 2, d) == std::vector<std::size_t>{3});
  const bool feas[] = {true, true, true, false};
  CHECK(tessera::pareto_front(v, 2, d, feas) == std::vector<std::size_t>{0, 1});
}

TEST_CASE("pareto_front in 3-D matches the reference on a dense tie lattice", "[pareto]") {
  std::vector<double> v;
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 6; ++b)
      for (int c = 0; c < 6; ++c)
        if ((a + b + c) % 3 == 0 || a + b + c == 7) {
          v.push_back(a);
          v.push_back(b);
          v.push_back(c);
        }
  const std::vector<Direction> d(3, Direction::minimize);
  CHECK(tessera::pareto_front(v, 3, d) == tessera::pareto_front_bruteforce(v, 3, d));
}
