// Work sized before it starts (docs/limits.md "Work"): grid sizes by saturating products equal
// to the grid's own count, the max_configs refusal, and random sampling without the list of
// every configuration (and with the dense shuffle's exact sample).
#include <catch2/catch.hpp>

#include <limits>
#include <random>
#include <stdexcept>

#include "eval/grid_space.hpp"
#include "eval/study_check.hpp"
#include "eval/work_size.hpp"
#include "scenario/sweeps/sweep_size.hpp"
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

// The size line and max_configs count configurations (valid canonical ones), not
// grid points; the count walks validity only (GridSpace::count_valid).
TEST_CASE("count_valid equals the grid's valid count on every shipped scenario", "[work]") {
  for (const auto& f : scenario_files()) {
    const Scenario sc = load(f);
    const GridSpace g(sc.sweep, sc.model, sc.machine, sc.workload);
    const GridSpace::ValidCount n = GridSpace::count_valid(sc.sweep, sc.model, sc.machine, sc.workload);
    INFO(f);
    CHECK(n.configurations == g.valid_count());
    CHECK_FALSE(n.more);
    CHECK(n.configurations < g.enumerated());
  }
}

namespace {

// Llama-3.1-70B (64 heads, 8 KV heads, 80 layers) on DGX-H100 (8 GPUs a node, 32 nodes: 256),
// the discrete knobs fixed: tp {1,2,3,4,8,16} x pp {1,2} x dp {1,...,64}: 84 grid points.
Scenario hand_counted() {
  Scenario sc = load("llama3.1-70b-decode-4k-h100.yaml");
  sc.sweep.cp = {1};
  sc.sweep.tp = {1, 2, 3, 4, 8, 16};
  sc.sweep.pp = {1, 2};
  sc.sweep.dp = {1, 2, 4, 8, 16, 32, 64};
  sc.sweep.ep = {1};
  sc.sweep.kv_shard_mode = {KvShardMode::split};
  sc.sweep.ffn_shard_scope = {FfnShardScope::tp};
  sc.sweep.tp_placement = {0};
  sc.sweep.cp_placement = {1};
  sc.sweep.cp_ring_variant = {CpRingVariant::kv};
  sc.sweep.hardware.clear();
  return sc;
}

}  // namespace

TEST_CASE("configurations counted by hand - validity and canonical forms", "[work]") {
  Scenario sc = hand_counted();
  REQUIRE(sc.machine.total_pes() == 256);
  // tp 3 does not divide 64 heads, tp 16 on the PE needs 16 GPUs of an 8-GPU node: tp in {1, 2,
  // 4, 8}. Then tp x pp x dp <= 256: tp 1: 7 + 7; tp 2: 7 + 7 (dp 64 x pp 2 x tp 2 = 256);
  // tp 4: 7 (pp 1) + 6 (pp 2: dp <= 32); tp 8: 6 (dp <= 32) + 5 (dp <= 16). 52 configurations.
  GridSpace::ValidCount n = GridSpace::count_valid(sc.sweep, sc.model, sc.machine, sc.workload);
  CHECK(n.configurations == 52);
  CHECK(n.tuples == 84);
  CHECK_FALSE(n.more);
  CHECK(GridSpace(sc.sweep, sc.model, sc.machine, sc.workload).valid_count() == 52);
  std::vector<Diagnostic> diags;
  const WorkSize w = check_study(sc, registry(), "run", StudyShape{}, diags);
  CHECK(diags.empty());
  CHECK(w.grid_points == 84);
  CHECK(w.configurations == 52);
  CHECK(w.evaluations == 52);
  CHECK(describe_work(w) == "grid 84 points, 52 configurations, 1 machine: at most 52 evaluations");
  // The index: 2 bytes and a bit per configuration, 4 per numeric tuple.
  CHECK(estimated_bytes(w) == static_cast<std::uint64_t>(52 * 2.125 + 84 * 4));

  // Every numeric knob 1, every discrete list at its default: 2 x 3 x 2 x 2 x 2 = 48 grid
  // points, one configuration (with no parallelism the discrete knobs change nothing).
  sc.sweep = Sweep{};
  n = GridSpace::count_valid(sc.sweep, sc.model, sc.machine, sc.workload);
  CHECK(sweep_grid_points(sc.sweep) == 48);
  CHECK(n.configurations == 1);

  // Stopped early at 10: the walk stops at the first numeric tuple after the 11th configuration
  // (one configuration a tuple here: the discrete knobs are fixed).
  sc = hand_counted();
  n = GridSpace::count_valid(sc.sweep, sc.model, sc.machine, sc.workload, 10);
  CHECK(n.more);
  CHECK(n.configurations == 11);
}

TEST_CASE("max_configs counts configurations - refused only above it", "[work]") {
  const Scenario sc = hand_counted();
  const Limits saved = current_limits();
  Limits low = saved;
  low.max_configs = 52;  // 84 grid points would once have been refused
  set_limits(low);
  std::vector<Diagnostic> diags;
  check_study(sc, registry(), "run", StudyShape{}, diags);
  CHECK(diags.empty());
  low.max_configs = 51;
  set_limits(low);
  const WorkSize w = check_study(sc, registry(), "run", StudyShape{}, diags);
  set_limits(saved);
  REQUIRE(diags.size() == 1);
  CHECK(w.more);
  CHECK(diags[0].message ==
        "run: grid 84 points, at least 52 configurations, 1 machine: at least 52 evaluations, which exceeds "
        "the "
        "limit max_configs (51); raise it with --max-configs N or --limit max_configs=N");
  // Two machines: the count stops past max_configs / 2 = 25.
  diags.clear();
  low.max_configs = 51;
  set_limits(low);
  StudyShape two;
  two.machines = 2;
  const WorkSize w2 = check_study(sc, registry(), "explore", two, diags);
  set_limits(saved);
  CHECK(w2.valid == 26);
  CHECK(w2.evaluations == 52);
  CHECK(diags.size() == 1);
}

TEST_CASE("a hardware axis resizing the machine leaves the grid's points as the bound", "[work]") {
  Scenario sc = hand_counted();
  HardwareAxis fanout;
  fanout.path = "machine.levels.cluster.fanout";
  fanout.values = {16, 64};
  sc.sweep.hardware.push_back(fanout);
  const ConfigCount n = count_configurations(sc, StudyShape{}, std::nullopt);
  CHECK(n.tuples == 0);  // not counted
  std::vector<Diagnostic> diags;
  const WorkSize w = check_study(sc, registry(), "explore", StudyShape{}, diags);
  CHECK_FALSE(w.counted);
  CHECK(w.configurations == 84);
  CHECK(describe_work(w) == "grid 84 points, 1 machine: at most 84 evaluations");
  // A bandwidth axis leaves the size alone: counted.
  sc.sweep.hardware[0].path = "machine.levels.cluster.link_bw";
  CHECK(count_configurations(sc, StudyShape{}, std::nullopt).configurations == 52);
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
