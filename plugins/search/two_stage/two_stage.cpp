#include "two_stage.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <vector>

namespace tessera::plugins {

namespace {

struct Hash {
  std::size_t operator()(const ParallelConfig& c) const noexcept {
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    mix(static_cast<std::uint32_t>(c.cp));
    mix(static_cast<std::uint32_t>(c.tp));
    mix(static_cast<std::uint32_t>(c.pp));
    mix(static_cast<std::uint32_t>(c.dp));
    mix(static_cast<std::uint32_t>(c.ep));
    mix(static_cast<std::uint64_t>(c.kv_shard_mode));
    mix(static_cast<std::uint64_t>(c.ffn_shard_scope));
    mix(static_cast<std::uint8_t>(c.tp_placement));
    mix(static_cast<std::uint8_t>(c.cp_placement));
    mix(static_cast<std::uint64_t>(c.cp_ring_variant));
    return static_cast<std::size_t>(h);
  }
};

struct Seen {
  double primary = 0;
  bool feasible = false;
  bool scored = false;
  bool expanded = false;
  std::size_t order = 0;  // proposal order: deterministic tie-break
};

constexpr int kNumeric = 5;

std::int32_t& knob(ParallelConfig& c, int k) {
  switch (k) {
    case 0: return c.cp;
    case 1: return c.tp;
    case 2: return c.pp;
    case 3: return c.dp;
    default: return c.ep;
  }
}

class TwoStageRun final : public SearchRun {
 public:
  TwoStageRun(const SearchSpace& space, TwoStageOptions o) : space_(space), o_(o) {
    lists_ = {&space.values_cp(), &space.values_tp(), &space.values_pp(), &space.values_dp(), &space.values_ep()};
    // Stage 1: powers of 4 present in the grid, plus the grid's smallest value.
    std::array<std::vector<std::int32_t>, kNumeric> coarse;
    for (int k = 0; k < kNumeric; ++k) {
      const auto& v = *lists_[k];
      for (std::int32_t x : v) {
        bool pow4 = false;
        for (std::int64_t p = 1; p <= x; p *= 4) pow4 = pow4 || p == x;
        if (pow4 || x == v.front()) coarse[k].push_back(x);
      }
    }
    const ParallelConfig d = space.defaults();
    for (auto cp : coarse[0])
      for (auto tp : coarse[1])
        for (auto pp : coarse[2])
          for (auto dp : coarse[3])
            for (auto ep : coarse[4]) {
              ParallelConfig c = d;
              c.cp = cp;
              c.tp = tp;
              c.pp = pp;
              c.dp = dp;
              c.ep = ep;
              add(space.canonicalize(c));
            }
  }

  std::size_t propose(std::span<ParallelConfig> out) override {
    if (next_ >= pending_.size()) {
      pending_.clear();
      next_ = 0;
      if (!next_round()) return 0;
    }
    const std::size_t n = std::min(out.size(), pending_.size() - next_);
    std::copy_n(pending_.begin() + static_cast<std::ptrdiff_t>(next_), n, out.begin());
    next_ += n;
    return n;
  }

  void receive(std::span<const ParallelConfig> configs, std::span<const SearchScore> scores) override {
    for (std::size_t i = 0; i < configs.size() && i < scores.size(); ++i) {
      auto it = seen_.find(configs[i]);
      if (it == seen_.end()) continue;
      it->second.primary = scores[i].primary;
      it->second.feasible = scores[i].feasible;
      it->second.scored = true;
    }
  }

 private:
  // Queues a valid canonical config not seen before.
  void add(const ParallelConfig& c) {
    if (!space_.is_valid_canonical(c)) return;
    if (seen_.count(c)) return;
    Seen s;
    s.order = seen_.size();
    seen_.emplace(c, s);
    pending_.push_back(c);
  }

  double best_feasible() const {
    double b = std::numeric_limits<double>::infinity();
    for (const auto& [c, s] : seen_)
      if (s.scored && s.feasible) b = std::min(b, s.primary);
    return b;
  }

  // Stage 2 round: expand the top K not yet expanded (feasible first, then by score).
  bool next_round() {
    const double best = best_feasible();
    // Done when a round did not improve the best (while nothing is feasible yet, keep going).
    if (rounds_ > 0 && best < std::numeric_limits<double>::infinity() && !(best < best_before_)) return false;
    if (rounds_ >= o_.max_rounds) return false;
    best_before_ = best;
    ++rounds_;
    std::vector<std::pair<const ParallelConfig*, Seen*>> cand;
    for (auto& [c, s] : seen_)
      if (s.scored && !s.expanded) cand.emplace_back(&c, &s);
    std::sort(cand.begin(), cand.end(), [](const auto& a, const auto& b) {
      if (a.second->feasible != b.second->feasible) return a.second->feasible;
      if (a.second->primary != b.second->primary) return a.second->primary < b.second->primary;
      return a.second->order < b.second->order;
    });
    const std::size_t k = std::min<std::size_t>(cand.size(), static_cast<std::size_t>(std::max<std::int64_t>(1, o_.keep)));
    for (std::size_t i = 0; i < k; ++i) {
      cand[i].second->expanded = true;
      neighbourhood(*cand[i].first);
    }
    return !pending_.empty();
  }

  int position(int k, std::int32_t v) const {
    const auto& l = *lists_[k];
    const auto it = std::lower_bound(l.begin(), l.end(), v);
    return (it != l.end() && *it == v) ? static_cast<int>(it - l.begin()) : -1;
  }

  void with_all_discrete(ParallelConfig c) {
    for (auto kv : space_.values_kv_shard_mode())
      for (auto ffn : space_.values_ffn_shard_scope())
        for (auto tpp : space_.values_tp_placement())
          for (auto cpp : space_.values_cp_placement())
            for (auto ring : space_.values_cp_ring_variant()) {
              c.kv_shard_mode = kv;
              c.ffn_shard_scope = ffn;
              c.tp_placement = tpp;
              c.cp_placement = cpp;
              c.cp_ring_variant = ring;
              add(space_.canonicalize(c));
            }
  }

  // Moves knob k by `step` grid positions; false when it leaves the grid.
  bool move(ParallelConfig& c, int k, int step) const {
    const int p = position(k, knob(c, k));
    if (p < 0) return false;
    const int q = p + step;
    const auto& l = *lists_[k];
    if (q < 0 || q >= static_cast<int>(l.size())) return false;
    knob(c, k) = l[static_cast<std::size_t>(q)];
    return true;
  }

  void neighbourhood(const ParallelConfig& x) {
    with_all_discrete(x);
    for (int k = 0; k < kNumeric; ++k)
      for (int step : {-1, 1}) {
        ParallelConfig c = x;
        if (move(c, k, step)) with_all_discrete(c);
      }
    if (!o_.pair_moves) return;
    for (int up = 0; up < kNumeric; ++up)
      for (int down = 0; down < kNumeric; ++down) {
        if (up == down) continue;
        ParallelConfig c = x;
        if (move(c, up, 1) && move(c, down, -1)) with_all_discrete(c);
      }
  }

  const SearchSpace& space_;
  TwoStageOptions o_;
  std::array<const std::vector<std::int32_t>*, kNumeric> lists_{};
  std::unordered_map<ParallelConfig, Seen, Hash> seen_;
  std::vector<ParallelConfig> pending_;
  std::size_t next_ = 0;
  int rounds_ = 0;
  double best_before_ = std::numeric_limits<double>::infinity();
};

}  // namespace

std::unique_ptr<SearchRun> TwoStageSearch::start(const SearchSpace& space) const {
  return std::make_unique<TwoStageRun>(space, o_);
}

}  // namespace tessera::plugins
