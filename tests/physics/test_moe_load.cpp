// The MoE most-loaded-rank approximation (docs/physics.md §4 "MoE load") against a
// seeded Monte-Carlo estimate, within 5 %, over a grid of (E, K, ep, tokens).
//
// Simulation: each of T tokens picks K DISTINCT experts uniformly at random; experts are
// assigned to the ep ranks in contiguous blocks of E/ep; per trial, the most loaded rank's
// distinct experts touched = max over ranks of the experts of its block with >= 1 token, and
// its token slots = max over ranks of the (token, expert) pairs routed to its block. Each is
// averaged over the trials: 2000 up to T = 256 tokens, then 2000·256/T but at least 500
// (trials_for). The maximum's spread relative to its mean falls as 1/sqrt(T), so the big
// batches need fewer trials for the same precision: the noisiest of them (E=256 K=1 ep=32,
// T=1024, 500 trials) has a standard error of about 0.3 % of the mean, against the 5 % bound
// (the worst cells, 3-4 %, are small batches, which keep 2000 trials). Combinations with
// K > E are skipped (none in this grid: K <= 8 <= E).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <vector>

#include "tessera/limits.hpp"
#include "tessera/physics/moe_load.hpp"

namespace {

struct McResult {
  double distinct = 0;  // E[max over ranks of distinct experts touched]
  double slots = 0;     // E[max over ranks of token slots]
};

// Unbiased-enough bounded draw in [0, n): Lemire's multiply-shift (bias < n / 2^32).
inline std::uint32_t bounded(std::mt19937& rng, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(rng()) * n) >> 32);
}

// One simulation of (E, K, T) serves every ep of the grid.
std::vector<McResult> monte_carlo(int E, int K, int T, const std::vector<int>& eps, int trials,
                                  std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int> perm(static_cast<std::size_t>(E));
  std::iota(perm.begin(), perm.end(), 0);
  std::vector<std::int64_t> hits(static_cast<std::size_t>(E));
  std::vector<McResult> out(eps.size());
  for (int t = 0; t < trials; ++t) {
    std::fill(hits.begin(), hits.end(), 0);
    for (int tok = 0; tok < T; ++tok) {
      // K distinct experts: a partial Fisher-Yates shuffle (perm stays a permutation).
      for (int i = 0; i < K; ++i) {
        const int j = i + static_cast<int>(bounded(rng, static_cast<std::uint32_t>(E - i)));
        std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
        ++hits[static_cast<std::size_t>(perm[static_cast<std::size_t>(i)])];
      }
    }
    for (std::size_t k = 0; k < eps.size(); ++k) {
      const int ep = eps[k], per = E / ep;
      std::int64_t best_distinct = 0, best_slots = 0;
      for (int r = 0; r < ep; ++r) {
        std::int64_t distinct = 0, slots = 0;
        for (int e = r * per; e < (r + 1) * per; ++e) {
          distinct += hits[static_cast<std::size_t>(e)] > 0 ? 1 : 0;
          slots += hits[static_cast<std::size_t>(e)];
        }
        best_distinct = std::max(best_distinct, distinct);
        best_slots = std::max(best_slots, slots);
      }
      out[k].distinct += static_cast<double>(best_distinct);
      out[k].slots += static_cast<double>(best_slots);
    }
  }
  for (McResult& r : out) {
    r.distinct /= trials;
    r.slots /= trials;
  }
  return out;
}

// Trials for a batch of T tokens: ~2000·256 token draws per simulation, 500 to 2000 trials.
int trials_for(int T) { return std::clamp(2000 * 256 / T, 500, 2000); }

}  // namespace

TEST_CASE("MoE most-loaded rank matches Monte Carlo within 5 %", "[physics][moe]") {
  constexpr double kBound = 0.05;
  std::ostringstream misses;
  int cells = 0, missed = 0;
  std::uint32_t seed = 20240611;
  for (int E : {8, 64, 256}) {
    for (int K : {1, 2, 8}) {
      if (K > E) continue;
      std::vector<int> eps;
      for (int ep : {1, 2, 8, 32})
        if (E % ep == 0 && ep <= E) eps.push_back(ep);
      for (int T : {1, 4, 16, 128, 1024, 8192}) {
        const std::vector<McResult> mc = monte_carlo(E, K, T, eps, trials_for(T), seed++);
        for (std::size_t k = 0; k < eps.size(); ++k) {
          const int ep = eps[k];
          const tessera::MoELoad f = tessera::moe_most_loaded_rank(T, E, K, ep, false);
          const double err_d = std::abs(f.distinct_experts - mc[k].distinct) / mc[k].distinct;
          const double err_s = std::abs(f.token_slots - mc[k].slots) / mc[k].slots;
          ++cells;
          INFO("E=" << E << " K=" << K << " ep=" << ep << " T=" << T << ": distinct formula "
                    << f.distinct_experts << " vs MC " << mc[k].distinct << ", slots formula "
                    << f.token_slots << " vs MC " << mc[k].slots);
          CHECK(err_d <= kBound);
          CHECK(err_s <= kBound);
          if (err_d > kBound || err_s > kBound) {
            ++missed;
            misses << std::setprecision(5) << "  E=" << E << " K=" << K << " ep=" << ep << " T=" << T
                   << "  distinct " << f.distinct_experts << " vs MC " << mc[k].distinct << " ("
                   << std::showpos << 100 * (f.distinct_experts / mc[k].distinct - 1) << std::noshowpos
                   << " %)  slots " << f.token_slots << " vs MC " << mc[k].slots << " (" << std::showpos
                   << 100 * (f.token_slots / mc[k].slots - 1) << std::noshowpos << " %)\n";
          }
        }
      }
    }
  }
  if (missed > 0)
    WARN("MoE load approximation outside 5 % in " << missed << " of " << cells << " cells:\n"
                                                  << misses.str());
  CHECK(cells == 3 * 6 * (3 + 4 + 4));  // K x T x (E=8: ep 1,2,8; E=64, 256: ep 1,2,8,32)
}

TEST_CASE("MoE load: the average rank and single-rank cases are exact", "[physics][moe]") {
  // ep = 1: one rank holds all E experts: distinct = E * (1 - (1 - K/E)^T), slots = T*K.
  const tessera::MoELoad one = tessera::moe_most_loaded_rank(16, 64, 2, 1, false);
  CHECK(one.distinct_experts == Approx(64 * (1 - std::pow(1 - 2.0 / 64, 16))).epsilon(1e-12));
  CHECK(one.token_slots == Approx(32).epsilon(1e-12));
  // balanced: the average rank, (E/ep) * p experts and T*K/ep slots.
  const tessera::MoELoad avg = tessera::moe_most_loaded_rank(100, 256, 8, 32, true);
  CHECK(avg.distinct_experts == Approx(8 * (1 - std::pow(1 - 8.0 / 256, 100))).epsilon(1e-12));
  CHECK(avg.token_slots == Approx(100.0 * 8 / 32).epsilon(1e-12));
  // K = E: every token touches every expert: all E/ep experts of a rank, T*E/ep slots.
  const tessera::MoELoad all = tessera::moe_most_loaded_rank(5, 8, 8, 2, false);
  CHECK(all.distinct_experts == Approx(4).epsilon(1e-12));
  CHECK(all.token_slots == Approx(20).epsilon(1e-12));
}

TEST_CASE("expected maximum of n standard normals", "[physics][moe]") {
  // Exact values (tables of normal order statistics): n=2 1/sqrt(pi), n=3 1.5/sqrt(pi),
  // n=4 1.02938, n=5 1.16296, n=8 1.42360, n=10 1.53875, n=100 2.50759.
  CHECK(tessera::expected_max_std_normal(1) == 0);
  CHECK(tessera::expected_max_std_normal(2) == Approx(0.5641895835).epsilon(1e-9));
  CHECK(tessera::expected_max_std_normal(3) == Approx(0.8462843753).epsilon(1e-9));
  // Blom's approximation beyond: within 2.5 % of the exact values (Blom overestimates small n
  // by ~2 %: n=4 1.0491, n=5 1.1798).
  CHECK(tessera::expected_max_std_normal(4) == Approx(1.02938).epsilon(0.025));
  CHECK(tessera::expected_max_std_normal(5) == Approx(1.16296).epsilon(0.025));
  CHECK(tessera::expected_max_std_normal(8) == Approx(1.42360).epsilon(0.025));
  CHECK(tessera::expected_max_std_normal(10) == Approx(1.53875).epsilon(0.025));
  CHECK(tessera::expected_max_std_normal(100) == Approx(2.50759).epsilon(0.025));
}

TEST_CASE("MoE most-loaded rank at large ep (hundreds of ranks) matches Monte Carlo within 5 %",
          "[physics][moe]") {
  // The regime whose exact table once took (ep - 1)·(slots + 1)^2 reals (1 GB per thread at
  // ep = 256): now computed row by row in 3·(slots + 1) reals, so it runs at any ep.
  constexpr int kTrials = 1000;
  std::uint32_t seed = 20261201;
  int cells = 0;
  for (int E : {256, 1024}) {
    const std::vector<int> eps = E == 256 ? std::vector<int>{64, 128, 256} : std::vector<int>{512, 1024};
    for (int T : {1, 4, 16, 64}) {
      const int K = 8;
      const std::vector<McResult> mc = monte_carlo(E, K, T, eps, kTrials, seed++);
      for (std::size_t k = 0; k < eps.size(); ++k) {
        const tessera::MoELoad f = tessera::moe_most_loaded_rank(T, E, K, eps[k], false);
        INFO("E=" << E << " ep=" << eps[k] << " T=" << T << ": distinct " << f.distinct_experts << " vs MC "
                  << mc[k].distinct << ", slots " << f.token_slots << " vs MC " << mc[k].slots);
        CHECK(std::abs(f.distinct_experts - mc[k].distinct) / mc[k].distinct <= 0.05);
        CHECK(std::abs(f.token_slots - mc[k].slots) / mc[k].slots <= 0.05);
        ++cells;
      }
    }
  }
  CHECK(cells == 4 * (3 + 2));
}

TEST_CASE("MoE most-loaded rank at the shipped wide MoEs matches Monte Carlo within 5 %", "[physics][moe]") {
  // The widths of the 2025-2026 models: Kimi-K2 384 experts top 8, Qwen3-Next 512 top 10,
  // gpt-oss-120b 128 top 4, gpt-oss-20b 32 top 4; EP 8 and 32 (decode batches to long prefill
  // chunks).
  std::uint32_t seed = 20261206;
  int cells = 0;
  const std::pair<int, int> widths[] = {{384, 8}, {512, 10}, {128, 4}, {32, 4}};
  for (const auto& [E, K] : widths) {
    const std::vector<int> eps = E >= 128 ? std::vector<int>{8, 32} : std::vector<int>{8};
    for (int T : {1, 16, 256, 2048}) {
      const std::vector<McResult> mc = monte_carlo(E, K, T, eps, trials_for(T), seed++);
      for (std::size_t k = 0; k < eps.size(); ++k) {
        const tessera::MoELoad f = tessera::moe_most_loaded_rank(T, E, K, eps[k], false);
        INFO("E=" << E << " K=" << K << " ep=" << eps[k] << " T=" << T << ": distinct " << f.distinct_experts
                  << " vs MC " << mc[k].distinct << ", slots " << f.token_slots << " vs MC " << mc[k].slots);
        CHECK(std::abs(f.distinct_experts - mc[k].distinct) / mc[k].distinct <= 0.05);
        CHECK(std::abs(f.token_slots - mc[k].slots) / mc[k].slots <= 0.05);
        ++cells;
      }
    }
  }
  CHECK(cells == 4 * (2 + 2 + 2 + 1));
}

TEST_CASE("MoE load beyond moe.table_entries: the approximation stays within 2 % of the exact sum",
          "[physics][moe]") {
  // Where both are cheap: force the approximation by lowering the limit (T differs from the
  // cases above only through the limit, which is part of the memo's key).
  const tessera::Limits saved = tessera::current_limits();
  const auto slots_with_limit = [&](double T, int ep, std::uint64_t entries) {
    tessera::Limits l = saved;
    l.moe_table_entries = entries;
    tessera::set_limits(l);
    const double v = tessera::moe_most_loaded_rank(T, 256, 8, ep, false).token_slots;
    tessera::set_limits(saved);
    return v;
  };
  // Cells past the default limit (10^6 entries): (ep - 1)·(8T + 1)^2 = 4.0e6, 1.1e6, 1.1e6, 4.3e6.
  const std::pair<int, double> cells[] = {{16, 64.0}, {64, 16.0}, {256, 8.0}, {256, 16.0}};
  for (const auto& [ep, T] : cells) {
    const double exact = slots_with_limit(T, ep, 1'000'000'000);
    const double approx = slots_with_limit(T, ep, 1);
    INFO("ep=" << ep << " T=" << T << ": exact " << exact << ", approximation " << approx);
    CHECK(approx != exact);
    CHECK(tessera::moe_most_loaded_rank(T, 256, 8, ep, false).token_slots == approx);  // the default
    CHECK(std::abs(approx - exact) / exact <= 0.02);
  }
}
