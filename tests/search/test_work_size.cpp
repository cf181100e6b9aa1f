// Work sized before it starts (docs/limits.md "Work"): grid sizes by saturating products equal
// to the grid's own count, the max_configs refusal, and random sampling without the list of
// every configuration (and with the dense shuffle's exact sample).
#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <stdexcept>

#include "eval/grid_space.hpp"
#include "eval/work_size.hpp"
#include "scenario/sweep_size.hpp"
#include "search_fixture.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

using namespace tessera;
using namespace tessera::test;

TEST_CASE("sweep_grid_points equals the grid's enumerated count on every shipped scenario", "[work]") {
  for (const auto& f : scenario_files()) {
    const Scenario sc = load(f);
    const GridSpace g(sc.sweep, sc.model, sc.machine, sc.workload);
    INFO(f);
    CHECK(sweep_grid_points(sc.sweep) == g.enumerated());
  }
}

TEST_CASE("grid sizes saturate instead of wrapping", "[work]") {
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  CHECK(saturating_size_mul(1ull << 32, 1ull << 31) == 1ull << 63);
  CHECK(saturating_size_mul(1ull << 32, 1ull << 32) == kMax);
  CHECK(saturating_size_mul(kMax, 0) == 0);
  Sweep s;
  for (auto* list : {&s.cp, &s.tp, &s.pp, &s.dp, &s.ep}) {
    list->clear();
    for (int i = 1; i <= 10000; ++i) list->push_back(i);
  }
  CHECK(sweep_grid_points(s) == kMax);  // 10^20 x 48: more than 2^64, sized without enumerating
  s.hardware.resize(5);
  for (auto& a : s.hardware) a.values.assign(10000, 1.0);
  CHECK(sweep_hardware_points(s) == kMax);
}

TEST_CASE("size_work: hardware points x configurations x latency models - samples bound a sampling search",
          "[work]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  const WorkSize all = size_work(sc.sweep, 3, 2, std::nullopt);
  CHECK(all.grid_points == 34560);
  CHECK(all.configurations == 34560);
  CHECK(all.evaluations == 34560 * 3 * 2);
  const WorkSize sampled = size_work(sc.sweep, 1, 1, 100);
  CHECK(sampled.sampled);
  CHECK(sampled.evaluations == 100);
  CHECK_FALSE(size_work(sc.sweep, 1, 1, 1'000'000).sampled);  // more samples than points
  CHECK(describe_work(sampled) == "grid 34560 points (100 samples), 1 machine: at most 100 evaluations");
}

TEST_CASE("check_work refuses above max_configs with the limit's name and flag", "[work]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  const Limits saved = current_limits();
  Limits low = saved;
  low.max_configs = 34560;
  set_limits(low);
  CHECK_NOTHROW(check_work(size_work(sc.sweep, 1, 1, std::nullopt), "run"));
  try {
    check_work(size_work(sc.sweep, 2, 1, std::nullopt), "explore");
    set_limits(saved);
    FAIL("expected InputError");
  } catch (const InputError& e) {
    set_limits(saved);
    const std::string m = e.what();
    CHECK(m.find("explore: grid 34560 points, 2 machines: at most 69120 evaluations") == 0);
    CHECK(m.find("exceeds the limit max_configs (34560); raise it with --max-configs N") !=
          std::string::npos);
  }
  set_limits(saved);
}

namespace {

// The host's grid, refusing to build the list of every configuration.
class NoListSpace final : public SearchSpace {
 public:
  explicit NoListSpace(const GridSpace& g) : g_(g) {}
  const std::vector<std::int32_t>& values_cp() const override { return g_.values_cp(); }
  const std::vector<std::int32_t>& values_tp() const override { return g_.values_tp(); }
  const std::vector<std::int32_t>& values_pp() const override { return g_.values_pp(); }
  const std::vector<std::int32_t>& values_dp() const override { return g_.values_dp(); }
  const std::vector<std::int32_t>& values_ep() const override { return g_.values_ep(); }
  const std::vector<KvShardMode>& values_kv_shard_mode() const override { return g_.values_kv_shard_mode(); }
  const std::vector<FfnShardScope>& values_ffn_shard_scope() const override {
    return g_.values_ffn_shard_scope();
  }
  const std::vector<std::int8_t>& values_tp_placement() const override { return g_.values_tp_placement(); }
  const std::vector<std::int8_t>& values_cp_placement() const override { return g_.values_cp_placement(); }
  const std::vector<CpRingVariant>& values_cp_ring_variant() const override {
    return g_.values_cp_ring_variant();
  }
  ParallelConfig defaults() const override { return g_.defaults(); }
  bool is_valid_canonical(const ParallelConfig& c) const override { return g_.is_valid_canonical(c); }
  ParallelConfig canonicalize(const ParallelConfig& c) const override { return g_.canonicalize(c); }
  const std::vector<ParallelConfig>& valid_configs() const override {
    throw std::logic_error("valid_configs() called: the list of every configuration was built");
  }
  std::uint64_t valid_count() const override { return g_.valid_count(); }
  std::size_t valid_range(std::uint64_t first, std::span<ParallelConfig> out) const override {
    return g_.valid_range(first, out);
  }

 private:
  const GridSpace& g_;
};

std::vector<ParallelConfig> proposals(SearchRun& run) {
  std::vector<ParallelConfig> out, batch(64);
  for (std::size_t n; (n = run.propose(batch)) > 0;) out.insert(out.end(), batch.begin(), batch.begin() + n);
  return out;
}

// The sample of the dense partial Fisher-Yates shuffle random used to draw over a vector of
// every position (same generator, same bounded draw), in the space's order.
std::vector<std::uint64_t> dense_sample(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  std::vector<std::uint64_t> idx(n);
  for (std::uint64_t i = 0; i < n; ++i) idx[i] = i;
  std::mt19937_64 rng(seed);
  for (std::uint64_t i = 0; i < m; ++i) {
    const std::uint64_t range = n - i, reject_below = (0 - range) % range;
    std::uint64_t x;
    do x = rng();
    while (x < reject_below);
    std::swap(idx[i], idx[i + x % range]);
  }
  idx.resize(m);
  std::sort(idx.begin(), idx.end());
  return idx;
}

}  // namespace

TEST_CASE("random samples through the compact index: the dense shuffle's sample - no full list",
          "[work][random]") {
  const Scenario sc = load("llama3.1-70b-decode-128k.yaml");
  const GridSpace g(sc.sweep, sc.model, sc.machine, sc.workload);
  const NoListSpace space(g);
  for (const auto& [samples, seed] : {std::pair<int, int>{300, 7}, {1, 1}, {5000, 42}}) {
    const auto st = registry().create_search(
        choice("random", {{"samples", std::to_string(samples)}, {"seed", std::to_string(seed)}}));
    const auto run = st->start(space);
    const std::vector<ParallelConfig> got = proposals(*run);
    const std::vector<std::uint64_t> want = dense_sample(g.valid_count(), samples, seed);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == g.valid_config(want[i]));
  }
  // More samples than configurations: every one, in order, still without the list.
  const auto st = registry().create_search(choice("random", {{"samples", "1000000"}}));
  const auto run = st->start(space);
  const std::vector<ParallelConfig> every = proposals(*run);
  REQUIRE(every.size() == g.valid_count());
  for (std::size_t i = 0; i < every.size(); i += 97) CHECK(every[i] == g.valid_config(i));
}
