// Most-loaded expert-parallel rank: docs/physics.md §4 "MoE load".
//
// E experts in ep ranks of n_e = E/ep; T tokens each route to K distinct experts.
//  - Distinct experts: N = E·p experts are touched in expectation, p = 1 - (1 - K/E)^T.
//    Given N touched experts, which ones is a uniformly random N-subset, so the per-rank
//    counts are multivariate hypergeometric; the expected maximum over ranks is exact:
//    P(max <= m) = [x^N] (sum_{j<=m} C(n_e, j) x^j)^ep / C(E, N). Fractional N interpolates
//    between its neighbours.
//  - Token slots: one token's K picks are a K-subset of the experts, so for T = 1 the rank
//    loads are that same hypergeometric with N = K (exact). For T > 1 the T·K slots are
//    treated as a multinomial over ep equal ranks, whose expected maximum is exact
//    (sequential binomial splitting); the within-token distinctness lowers each rank's
//    variance by (E-K)/(E-1), applied to the excess over the mean. Beyond 512 slots the
//    normal limit is used: mean + sigma·z(ep)/sqrt(1 - 1/ep) (the loads sum to T·K).
// Results are cached per (kind, N or T, E, K, ep): a sweep meets only a few of them.
#include "tessera/physics/moe_load.hpp"

#include "physics/normal_quantile.hpp"
#include "tessera/limits.hpp"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <tuple>
#include <vector>

namespace tessera {

double expected_max_std_normal(std::int64_t n) {
  if (n <= 1) return 0.0;
  if (n == 2) return 1.0 / std::sqrt(M_PI);
  if (n == 3) return 1.5 / std::sqrt(M_PI);
  // Exact values for small n (Harter's tables), Blom's approximation beyond.
  static const double kSmall[] = {0,          0,          0,          0,          1.02937537, 1.16296447,
                                  1.26720636, 1.35217838, 1.42360030, 1.48501316, 1.53875273};
  if (n <= 10) return kSmall[n];
  const double p = (static_cast<double>(n) - 0.375) / (static_cast<double>(n) + 0.25);
  return normal_quantile(p);
}

namespace {

using Real = long double;

Real log_choose(Real n, Real k) { return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1); }

// E[max over ep ranks] when N of the E = ep·n_e experts, chosen uniformly, are marked.
double expected_max_hypergeometric(std::int64_t N, std::int64_t n_e, std::int64_t ep) {
  const std::int64_t E = n_e * ep;
  if (N <= 0) return 0;
  if (N >= E) return static_cast<double>(n_e);
  if (ep == 1) return static_cast<double>(N);
  const Real log_total = log_choose(static_cast<Real>(E), static_cast<Real>(N));
  std::vector<Real> w(static_cast<std::size_t>(n_e) + 1);  // C(n_e, j) / C(E, N)^(1/ep), scaled
  const Real scale = log_total / static_cast<Real>(ep);
  for (std::int64_t j = 0; j <= n_e; ++j)
    w[static_cast<std::size_t>(j)] =
        std::exp(log_choose(static_cast<Real>(n_e), static_cast<Real>(j)) - scale);
  std::vector<Real> poly, next;
  double expected = 0;
  const std::int64_t lowest = (N + ep - 1) / ep;  // max >= ceil(N/ep) always
  expected += static_cast<double>(lowest);
  for (std::int64_t m = lowest; m < std::min(N, n_e); ++m) {
    poly.assign(static_cast<std::size_t>(N) + 1, 0);
    poly[0] = 1;
    for (std::int64_t r = 0; r < ep; ++r) {
      next.assign(static_cast<std::size_t>(N) + 1, 0);
      for (std::int64_t deg = 0; deg <= N; ++deg) {
        const Real v = poly[static_cast<std::size_t>(deg)];
        if (v == 0) continue;
        for (std::int64_t j = 0; j <= m && deg + j <= N; ++j)
          next[static_cast<std::size_t>(deg + j)] += v * w[static_cast<std::size_t>(j)];
      }
      poly.swap(next);
    }
    const double p_le = static_cast<double>(std::min<Real>(1, poly[static_cast<std::size_t>(N)]));
    expected += 1 - p_le;
    if (p_le > 1 - 1e-12) break;
  }
  return expected;
}

// E[max over ep equal bins] of a multinomial with n balls (exact, sequential binomials:
// bin b takes Binomial(k, 1/(ep-b)) of the k balls left). P(bin b takes j | k left) is built by
// the binomial recurrence from j = 0. Up to kRowTableEntries reals the row of each (bin, k) is
// kept and extended as the threshold m grows (no pow and no division per m: several times
// faster); beyond, each row is recomputed where it is used (memory 3·(n + 1) reals whatever
// ep). Both run the same recurrence in the same order: the same numbers bit for bit.
constexpr double kRowTableEntries = 1 << 20;  // 16 MB of long doubles

double expected_max_multinomial(std::int64_t n, std::int64_t ep) {
  if (n <= 0) return 0;
  if (ep == 1) return static_cast<double>(n);
  const std::size_t N = static_cast<std::size_t>(n);
  const std::size_t W = N + 1;  // one row's stride
  const bool table =
      static_cast<double>(ep - 1) * static_cast<double>(W) * static_cast<double>(W) <= kRowTableEntries;
  std::vector<Real> g(N + 1), g_next(N + 1);
  std::vector<Real> rows(table ? static_cast<std::size_t>(ep - 1) * W * W : W);
  std::vector<std::size_t> filled(table ? static_cast<std::size_t>(ep - 1) * W : 0, 0);  // entries so far
  const std::int64_t lowest = (n + ep - 1) / ep;
  double expected = static_cast<double>(lowest);
  for (std::int64_t m = lowest; m < n; ++m) {
    const std::size_t M = static_cast<std::size_t>(m);
    // g(k) = P(every remaining bin <= m | k balls left); the last bin takes all that is left.
    for (std::size_t k = 0; k <= N; ++k) g[k] = k <= M ? 1 : 0;
    for (std::int64_t b = ep - 2; b >= 0; --b) {
      const Real q = Real(1) / static_cast<Real>(ep - b);
      const std::size_t row0 = static_cast<std::size_t>(b) * W;
      for (std::size_t k = 0; k <= N; ++k) {
        // P(bin b takes j | k left), j <= min(m, k), by the binomial recurrence.
        const std::size_t top = std::min(M, k);
        Real* r = table ? rows.data() + (row0 + k) * W : rows.data();
        std::size_t have = table ? filled[row0 + k] : 0;
        if (have == 0) {
          r[0] = std::pow(1 - q, static_cast<Real>(k));
          have = 1;
        }
        for (std::size_t j = have - 1; j < top; ++j)
          r[j + 1] = r[j] * static_cast<Real>(k - j) / static_cast<Real>(j + 1) * q / (1 - q);
        if (table) filled[row0 + k] = std::max(have, top + 1);
        Real s = 0;
        for (std::size_t j = 0; j <= top; ++j) s += r[j] * g[k - j];
        g_next[k] = s;
      }
      g.swap(g_next);
    }
    const double p_le = static_cast<double>(std::min<Real>(1, g[N]));
    expected += 1 - p_le;
    if (p_le > 1 - 1e-12) break;
  }
  return expected;
}

// The size of the exact multinomial sum, as the table of its binomial rows: (ep - 1)·(n + 1)^2.
double exact_table_entries(std::int64_t n, std::int64_t ep) {
  return static_cast<double>(ep - 1) * static_cast<double>(n + 1) * static_cast<double>(n + 1);
}

// E[max] of ep independent Binomial(n, 1/ep) loads: sum over m of 1 - P(X <= m)^ep. The
// multinomial's loads are weakly correlated (they sum to n) when ep is large, which is where
// this is used; tests/physics/test_moe_load.cpp bounds it against Monte Carlo and against the
// exact sum. O(n) time, O(1) memory.
double expected_max_independent_binomials(std::int64_t n, std::int64_t ep) {
  if (n <= 0) return 0;
  if (ep == 1) return static_cast<double>(n);
  const Real q = Real(1) / static_cast<Real>(ep);
  Real pmf = std::pow(1 - q, static_cast<Real>(n));  // P(X = 0)
  Real cdf = pmf;
  double expected = 0;
  for (std::int64_t m = 0; m < n; ++m) {
    const Real all_le = cdf >= 1 ? Real(1) : std::exp(static_cast<Real>(ep) * std::log(cdf));
    expected += static_cast<double>(1 - all_le);
    if (all_le > 1 - 1e-12L) break;
    pmf *= static_cast<Real>(n - m) / static_cast<Real>(m + 1) * q / (1 - q);
    cdf += pmf;
  }
  return expected;
}

double distinct_experts_max(double tokens, std::int64_t E, std::int64_t K, std::int64_t ep) {
  const double p = 1 - std::pow(1 - static_cast<double>(K) / static_cast<double>(E), tokens);
  const double N = static_cast<double>(E) * p;
  const std::int64_t lo = static_cast<std::int64_t>(std::floor(N));
  const double frac = N - static_cast<double>(lo);
  const std::int64_t n_e = E / ep;
  const double at_lo = expected_max_hypergeometric(lo, n_e, ep);
  if (frac < 1e-12) return at_lo;
  return (1 - frac) * at_lo + frac * expected_max_hypergeometric(lo + 1, n_e, ep);
}

// Up to this many slots the multinomial maximum is exact; beyond, its normal limit.
constexpr double kExactSlots = 512;

double token_slots_max(double tokens, std::int64_t E, std::int64_t K, std::int64_t ep) {
  const std::int64_t n_e = E / ep;
  const double mean = tokens * static_cast<double>(K) / static_cast<double>(ep);
  const double cap = tokens * static_cast<double>(std::min(K, n_e));
  if (tokens <= 1) return expected_max_hypergeometric(K, n_e, ep) * tokens;
  const double distinct = E > 1 ? static_cast<double>(E - K) / static_cast<double>(E - 1) : 0.0;
  const double slots = tokens * static_cast<double>(K);
  double excess;
  if (slots <= kExactSlots && std::abs(slots - std::round(slots)) < 1e-9) {
    const auto n = static_cast<std::int64_t>(std::llround(slots));
    // The exact sum costs what a table of every bin's binomial rows would hold,
    // (ep - 1)·(n + 1)^2 entries: within the limit moe.table_entries exact, beyond it the
    // maximum of ep independent Binomial(n, 1/ep) loads (docs/physics.md "MoE load").
    if (exact_table_entries(n, ep) <= static_cast<double>(current_limits().moe_table_entries))
      excess = expected_max_multinomial(n, ep) - mean;
    else
      excess = expected_max_independent_binomials(n, ep) - mean;
  } else {
    const double epd = static_cast<double>(ep);
    const double sigma = std::sqrt(slots / epd * (1 - 1 / epd));
    excess = sigma * expected_max_std_normal(ep) / std::sqrt(1 - 1 / epd);
  }
  return std::clamp(mean + excess * std::sqrt(distinct), mean, cap);
}

// Thread-safe memo: the hot path meets a handful of keys per sweep. A key is computed once: a
// thread that meets a key another thread is computing waits for its value (the exact sums
// take milliseconds, and threads of one study meet the same keys at about the same time).
using Key = std::tuple<int, double, std::int64_t, std::int64_t, std::int64_t>;
std::shared_mutex g_mutex;
std::condition_variable_any g_computed;
std::map<Key, double>& cache() {
  static std::map<Key, double> c;
  return c;
}
std::set<Key>& in_flight() {
  static std::set<Key> s;
  return s;
}

template <class F>
double memo(int kind, double tokens, std::int64_t E, std::int64_t K, std::int64_t ep, F&& compute) {
  const Key key{kind, tokens, E, K, ep};
  thread_local Key last_key{-1, 0, 0, 0, 0};
  thread_local double last_value = 0;
  thread_local Key last_key2{-1, 0, 0, 0, 0};
  thread_local double last_value2 = 0;
  if (key == last_key) return last_value;
  if (key == last_key2) return last_value2;
  const auto remember = [&](double value) {
    last_key2 = last_key;
    last_value2 = last_value;
    last_key = key;
    last_value = value;
    return value;
  };
  {
    std::shared_lock lock(g_mutex);
    auto it = cache().find(key);
    if (it != cache().end()) return remember(it->second);
  }
  {
    std::unique_lock lock(g_mutex);
    for (;;) {
      auto it = cache().find(key);
      if (it != cache().end()) return remember(it->second);
      if (in_flight().insert(key).second) break;  // this thread computes it
      g_computed.wait(lock);
    }
  }
  double value = 0;
  try {
    value = compute();
  } catch (...) {
    const std::unique_lock lock(g_mutex);
    in_flight().erase(key);
    g_computed.notify_all();
    throw;
  }
  {
    const std::unique_lock lock(g_mutex);
    cache().emplace(key, value);
    in_flight().erase(key);
  }
  g_computed.notify_all();
  return remember(value);
}

}  // namespace

MoELoad moe_most_loaded_rank(double tokens, std::int64_t experts, std::int64_t k, std::int64_t ep,
                             bool balanced) {
  MoELoad out;
  if (tokens <= 0 || experts <= 0 || k <= 0 || ep <= 0) return out;
  const double E = static_cast<double>(experts), K = static_cast<double>(k);
  const std::int64_t per_rank = experts / ep;
  const double mean_slots = tokens * K / static_cast<double>(ep);
  if (balanced || ep == 1) {
    out.distinct_experts = static_cast<double>(per_rank) * (1 - std::pow(1 - K / E, tokens));
    out.token_slots = mean_slots;
    return out;
  }
  out.distinct_experts =
      memo(0, tokens, experts, k, ep, [&] { return distinct_experts_max(tokens, experts, k, ep); });
  // The limit moe.table_entries can choose the approximation: part of the memo's key.
  const int slots_kind =
      1 + static_cast<int>(std::min<std::uint64_t>(current_limits().moe_table_entries, 1u << 30));
  out.token_slots =
      memo(slots_kind, tokens, experts, k, ep, [&] { return token_slots_max(tokens, experts, k, ep); });
  return out;
}

MoELoad moe_most_loaded_rank(double tokens, std::int64_t experts, std::int64_t k, std::int64_t ep,
                             bool balanced, const MoEBalance& balance) {
  const bool replicas = balance.eplb && balance.redundant_experts > 0;
  if (balance.load_cv <= 0 && !replicas) return moe_most_loaded_rank(tokens, experts, k, ep, balanced);
  // The E + R physical experts: a token's K picks land on K of them (docs/physics.md §4).
  const std::int64_t physical = experts + (replicas ? balance.redundant_experts : 0);
  MoELoad out = moe_most_loaded_rank(tokens, physical, k, ep, balanced);
  if (balanced || ep <= 1 || tokens <= 0) return out;
  const double mean_slots = tokens * static_cast<double>(k) / static_cast<double>(ep);
  const double skew = moe_systematic_imbalance(experts, ep, balance);
  const double cap = tokens * static_cast<double>(std::min(k, physical / ep));
  // The statistical and the systematic excess over the mean, in quadrature (docs/physics.md §4).
  const double statistical = std::max(0.0, out.token_slots - mean_slots);
  out.token_slots = std::min(cap, mean_slots + std::hypot(statistical, mean_slots * (skew - 1)));
  return out;
}

}  // namespace tessera
