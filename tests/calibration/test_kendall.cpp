// Kendall tau-b: Knight's O(N log N) algorithm against the O(N^2) definition, known values, ties.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <random>
#include <vector>

#include "analysis/search/kendall.hpp"

using tessera::kendall_tau_b;
using tessera::kendall_tau_b_bruteforce;

TEST_CASE("kendall: a ranking compared with itself has tau-b = 1 and ties included", "[kendall]") {
  const std::vector<double> x = {3, 1, 2, 2, 5, 5, 5, 0.5};
  const auto r = kendall_tau_b(x, x);
  CHECK(r.tau_b == Approx(1.0));
  CHECK(r.discordant == 0);
}

TEST_CASE("kendall: reversed ranking has tau-b = -1", "[kendall]") {
  std::vector<double> x, y;
  for (int i = 0; i < 50; ++i) {
    x.push_back(i);
    y.push_back(-2.0 * i);
  }
  CHECK(kendall_tau_b(x, y).tau_b == Approx(-1.0));
}

TEST_CASE("kendall: known tau-b with ties (scipy.stats.kendalltau)", "[kendall]") {
  // scipy.stats.kendalltau([12, 2, 1, 12, 2], [1, 4, 7, 1, 0]) -> -0.47140452079103173
  const std::vector<double> x = {12, 2, 1, 12, 2}, y = {1, 4, 7, 1, 0};
  const auto r = kendall_tau_b(x, y);
  CHECK(r.tau_b == Approx(-0.47140452079103173).epsilon(1e-12));
  CHECK(r.ties_x == 2);
  CHECK(r.ties_y == 1);
  CHECK(r.ties_xy == 1);
}

TEST_CASE("kendall: constant input is undefined (NaN)", "[kendall]") {
  const std::vector<double> x = {1, 1, 1}, y = {1, 2, 3};
  CHECK(std::isnan(kendall_tau_b(x, y).tau_b));
}

TEST_CASE("kendall: Knight equals the definition on random data with many ties", "[kendall]") {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> small(0, static_cast<int>(seed % 7) + 2);  // heavy ties
    std::normal_distribution<double> noise(0, 1);
    const std::size_t n = 50 + seed * 17;
    std::vector<double> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = small(rng);
      y[i] = seed % 2 ? x[i] + noise(rng) : static_cast<double>(small(rng));
    }
    const auto fast = kendall_tau_b(x, y);
    const auto slow = kendall_tau_b_bruteforce(x, y);
    CHECK(fast.concordant == slow.concordant);
    CHECK(fast.discordant == slow.discordant);
    CHECK(fast.ties_x == slow.ties_x);
    CHECK(fast.ties_y == slow.ties_y);
    CHECK(fast.ties_xy == slow.ties_xy);
    CHECK(fast.tau_b == Approx(slow.tau_b).epsilon(1e-12));
  }
}

TEST_CASE("kendall: 20k items in well under a second", "[kendall]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  const std::size_t n = 20000;
  std::vector<double> x(n), y(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = std::floor(u(rng) * 1000);
    y[i] = x[i] + u(rng) * 100;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = kendall_tau_b(x, y);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(r.n == n);
  CHECK(r.tau_b > 0.5);
  CHECK(s < 0.5);
}
