// search/two_stage driven directly on small synthetic spaces whose objective is written here,
// so that each part of the algorithm is checked on a case built to need it: the plateau walk,
// the pair moves, the fallback when no coarse tuple fits, the budget, no repeats.
#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <tuple>

#include "search_fixture.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

// Every grid point valid, one value of each discrete knob (the defaults).
class SyntheticSpace final : public SearchSpace {
 public:
  explicit SyntheticSpace(std::vector<std::int32_t> v) : v_(std::move(v)) {
    for (auto cp : v_)
      for (auto tp : v_)
        for (auto pp : v_)
          for (auto dp : v_)
            for (auto ep : v_) {
              ParallelConfig c;
              c.cp = cp, c.tp = tp, c.pp = pp, c.dp = dp, c.ep = ep;
              all_.push_back(c);
            }
  }
  const std::vector<std::int32_t>& values_cp() const override { return v_; }
  const std::vector<std::int32_t>& values_tp() const override { return v_; }
  const std::vector<std::int32_t>& values_pp() const override { return v_; }
  const std::vector<std::int32_t>& values_dp() const override { return v_; }
  const std::vector<std::int32_t>& values_ep() const override { return v_; }
  const std::vector<KvShardMode>& values_kv_shard_mode() const override { return kv_; }
  const std::vector<FfnShardScope>& values_ffn_shard_scope() const override { return ffn_; }
  const std::vector<std::int8_t>& values_tp_placement() const override { return tpp_; }
  const std::vector<std::int8_t>& values_cp_placement() const override { return cpp_; }
  const std::vector<CpRingVariant>& values_cp_ring_variant() const override { return ring_; }
  ParallelConfig defaults() const override { return ParallelConfig{}; }
  bool is_valid_canonical(const ParallelConfig& c) const override {
    return std::find(all_.begin(), all_.end(), c) != all_.end();
  }
  ParallelConfig canonicalize(const ParallelConfig& c) const override { return c; }
  const std::vector<ParallelConfig>& valid_configs() const override { return all_; }

 private:
  std::vector<std::int32_t> v_;
  std::vector<KvShardMode> kv_{KvShardMode::split};
  std::vector<FfnShardScope> ffn_{FfnShardScope::tp};
  std::vector<std::int8_t> tpp_{0}, cpp_{1};
  std::vector<CpRingVariant> ring_{CpRingVariant::kv};
  std::vector<ParallelConfig> all_;
};

struct Outcome {
  std::size_t evaluated = 0;
  bool repeated = false;
  bool found = false;
  SearchScore best;
  ParallelConfig best_config;
};

using ScoreOf = std::function<SearchScore(const ParallelConfig&)>;

Outcome drive(const SearchSpace& space, const ScoreOf& f,
              std::vector<std::pair<std::string, std::string>> params = {}) {
  const auto strategy = registry().create_search(choice("two_stage", std::move(params)));
  const auto run = strategy->start(space);
  std::vector<ParallelConfig> buf(64);
  std::vector<SearchScore> scores(64);
  std::set<std::tuple<int, int, int, int, int>> seen;
  Outcome o;
  for (;;) {
    const std::size_t n = run->propose(buf);
    if (n == 0) break;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& c = buf[i];
      if (!seen.insert({c.cp, c.tp, c.pp, c.dp, c.ep}).second) o.repeated = true;
      scores[i] = f(c);
      if (scores[i].feasible && (!o.found || scores[i].primary < o.best.primary)) {
        o.found = true;
        o.best = scores[i];
        o.best_config = c;
      }
    }
    run->receive(std::span<const ParallelConfig>(buf.data(), n),
                 std::span<const SearchScore>(scores.data(), n));
  }
  o.evaluated = seen.size();
  return o;
}

const std::vector<std::int32_t> kValues{1, 2, 3, 4, 5};  // 5^5 = 3125 configurations

}  // namespace

TEST_CASE("two_stage walks a plateau: a knob that changes nothing alone - the optimum behind it",
          "[search][two_stage]") {
  const SyntheticSpace space(kValues);
  // dp alone changes nothing (a plateau: dp replicates the model, latency unchanged); only with
  // dp = 5 does ep = 5 pay. Elsewhere a bowl around cp = tp = 2 (value 10 + distance).
  const ScoreOf f = [](const ParallelConfig& c) {
    double v = 10 + std::abs(c.cp - 2) + std::abs(c.tp - 2) + (c.pp - 1) + 0.5 * (c.ep - 1);
    if (c.dp == 5 && c.ep == 5) v = 1;
    return SearchScore{v, true};
  };
  const Outcome o = drive(space, f);
  REQUIRE(o.found);
  CHECK(o.best.primary == 1);
  CHECK(!o.repeated);
  CHECK(o.evaluated < space.valid_configs().size());
}

TEST_CASE("two_stage pair moves: two knobs together where each alone is worse", "[search][two_stage]") {
  const SyntheticSpace space(kValues);
  // Over (cp, tp), pp = dp = ep = 1 best (+10 per step off): the coarse tuples (1 and 4 of each
  // knob) lead to (4, 4) = 5, a local optimum for one-knob moves (every (4, x) and (x, 4) is 9);
  // the optimum (3, 3) = 1 is one step in both knobs at once. (1, 1) = 8 is a second trap.
  const ScoreOf f = [](const ParallelConfig& c) {
    double v = 9;
    if (c.cp == 4 && c.tp == 4) v = 5;
    if (c.cp == 3 && c.tp == 3) v = 1;
    if (c.cp == 1 && c.tp == 1) v = 8;
    return SearchScore{v + 10.0 * ((c.pp - 1) + (c.dp - 1) + (c.ep - 1)), true};
  };
  const Outcome with = drive(space, f);
  REQUIRE(with.found);
  CHECK(with.best.primary == 1);
  CHECK(with.best_config.cp == 3);
  CHECK(with.best_config.tp == 3);
  // Without them the climb stops at the trap: the tier is what finds the optimum.
  const Outcome without = drive(space, f, {{"pair_moves", "false"}});
  REQUIRE(without.found);
  CHECK(without.best.primary == 5);
}

TEST_CASE("two_stage: no feasible coarse tuple - it evaluates every tuple and finds the one that fits",
          "[search][two_stage]") {
  const SyntheticSpace space(kValues);
  // Coarse tuples: the values 1 and 4 of each knob. Only (3, 3, 3, 3, 3) fits memory.
  const ScoreOf f = [](const ParallelConfig& c) {
    const bool fits = c.cp == 3 && c.tp == 3 && c.pp == 3 && c.dp == 3 && c.ep == 3;
    return SearchScore{1.0 + c.cp, fits};
  };
  const Outcome o = drive(space, f);
  REQUIRE(o.found);
  CHECK(o.best_config.cp == 3);
  CHECK(o.evaluated == space.valid_configs().size());
  CHECK(!o.repeated);
}

TEST_CASE("two_stage: max_fraction caps the configurations evaluated", "[search][two_stage]") {
  const SyntheticSpace space(kValues);
  const ScoreOf f = [](const ParallelConfig& c) {
    return SearchScore{double(c.cp * 7 % 5 + c.tp * 3 % 5 + c.pp + c.dp + c.ep), true};
  };
  const Outcome all = drive(space, f);
  const Outcome capped = drive(space, f, {{"max_fraction", "0.01"}});
  // 1 % of 3125 = 31.25 configurations at most.
  CHECK(capped.evaluated <= 31);
  CHECK(capped.evaluated < all.evaluated);
  CHECK(!capped.repeated);
}
