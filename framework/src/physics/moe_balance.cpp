// The router's systematic skew and EPLB's placement: docs/physics.md §4 "MoE load".
//
// Each expert's share of the routed load is a quantile of a lognormal of mean 1 and coefficient
// of variation `load_cv` (expert j of E at (j + 1/2)/E). Without the balancer the experts sit on
// the ranks by id, at random with respect to their load: the expected maximum rank's load over
// the mean is averaged over seeded random placements (deterministic). With it, the R replicas go
// one by one to the expert of the largest load per replica, and the replicas are packed, heaviest
// first, onto the rank of least load with a free slot ((E + R)/ep slots per rank): the
// replication and packing of DeepSeek's EPLB (deepseek-ai/eplb, eplb.py), its global policy.
// The results are memoised per (E, ep, balance): a study meets a handful.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <shared_mutex>
#include <tuple>
#include <vector>

#include "physics/normal_quantile.hpp"
#include "tessera/physics/moe_load.hpp"

namespace tessera {

namespace {

// The experts' loads, heaviest first, of mean 1.
std::vector<double> expert_loads(std::int64_t E, double cv) {
  std::vector<double> w(static_cast<std::size_t>(E), 1.0);
  if (cv <= 0) return w;
  const double s = std::sqrt(std::log1p(cv * cv));
  double sum = 0;
  for (std::int64_t j = 0; j < E; ++j) {
    const double q = (static_cast<double>(E - 1 - j) + 0.5) / static_cast<double>(E);
    w[static_cast<std::size_t>(j)] = std::exp(s * normal_quantile(q));
    sum += w[static_cast<std::size_t>(j)];
  }
  for (double& x : w) x *= static_cast<double>(E) / sum;
  return w;
}

// splitmix64: a fixed, portable stream (the placements are the same on every platform).
std::uint64_t splitmix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr int kPlacements = 4096;  // seeded random placements averaged without the balancer

double placed_by_id(std::vector<double> w, std::int64_t ep) {
  const std::size_t E = w.size(), per = E / static_cast<std::size_t>(ep);
  std::uint64_t seed = 0x7E55E7A;
  double total = 0;
  for (int t = 0; t < kPlacements; ++t) {
    for (std::size_t i = E - 1; i > 0; --i) std::swap(w[i], w[splitmix(seed) % (i + 1)]);
    double worst = 0;
    for (std::size_t r = 0; r < static_cast<std::size_t>(ep); ++r) {
      double load = 0;
      for (std::size_t j = r * per; j < (r + 1) * per; ++j) load += w[j];
      worst = std::max(worst, load);
    }
    total += worst;
  }
  return total / kPlacements / static_cast<double>(per);
}

double placed_by_eplb(const std::vector<double>& w, std::int64_t ep, std::int64_t R) {
  const std::size_t E = w.size();
  std::vector<std::int64_t> copies(E, 1);
  for (std::int64_t r = 0; r < R; ++r) {  // each replica to the largest load per replica
    std::size_t best = 0;
    for (std::size_t j = 1; j < E; ++j)
      if (w[j] * static_cast<double>(copies[best]) > w[best] * static_cast<double>(copies[j])) best = j;
    ++copies[best];
  }
  std::vector<double> items;
  for (std::size_t j = 0; j < E; ++j)
    for (std::int64_t c = 0; c < copies[j]; ++c) items.push_back(w[j] / static_cast<double>(copies[j]));
  std::sort(items.begin(), items.end(), [](double a, double b) { return a > b; });
  const std::size_t slots = items.size() / static_cast<std::size_t>(ep);
  std::vector<double> load(static_cast<std::size_t>(ep), 0);
  std::vector<std::size_t> used(static_cast<std::size_t>(ep), 0);
  for (double x : items) {
    std::size_t to = load.size();
    for (std::size_t r = 0; r < load.size(); ++r)
      if (used[r] < slots && (to == load.size() || load[r] < load[to])) to = r;
    load[to] += x;
    ++used[to];
  }
  const double mean = static_cast<double>(E) / static_cast<double>(ep);
  return *std::max_element(load.begin(), load.end()) / mean;
}

using BalanceKey = std::tuple<std::int64_t, std::int64_t, double, bool, std::int64_t>;
std::shared_mutex g_balance_mutex;
std::map<BalanceKey, double>& balance_cache() {
  static std::map<BalanceKey, double> c;
  return c;
}

}  // namespace

double moe_systematic_imbalance(std::int64_t experts, std::int64_t ep, const MoEBalance& b) {
  if (experts <= 0 || ep <= 1) return 1.0;
  const std::int64_t slots = experts + (b.eplb ? b.redundant_experts : 0);
  if (slots % ep != 0 || (!b.eplb && b.load_cv <= 0)) return 1.0;
  const BalanceKey key{experts, ep, b.load_cv, b.eplb, b.eplb ? b.redundant_experts : 0};
  thread_local BalanceKey last_key{-1, 0, 0, false, 0};
  thread_local double last_value = 1;
  if (key == last_key) return last_value;
  {
    const std::shared_lock lock(g_balance_mutex);
    const auto it = balance_cache().find(key);
    if (it != balance_cache().end()) {
      last_key = key;
      return last_value = it->second;
    }
  }
  const std::vector<double> w = expert_loads(experts, b.load_cv);
  const double value =
      std::max(1.0, b.eplb ? placed_by_eplb(w, ep, b.redundant_experts) : placed_by_id(w, ep));
  {
    const std::unique_lock lock(g_balance_mutex);
    balance_cache().emplace(key, value);
  }
  last_key = key;
  return last_value = value;
}

}  // namespace tessera
