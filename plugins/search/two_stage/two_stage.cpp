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
  std::size_t order = 0;  // proposal order: deterministic tie-break
};

constexpr int kNumeric = 5;

std::int32_t& knob(ParallelConfig& c, int k) {
  switch (k) {
    case 0:
      return c.cp;
    case 1:
      return c.tp;
    case 2:
      return c.pp;
    case 3:
      return c.dp;
    default:
      return c.ep;
  }
}

class TwoStageRun final : public SearchRun {
 public:
  TwoStageRun(const SearchSpace& space, TwoStageOptions o) : space_(space), o_(o) {
    budget_ = std::max(8.0, o.max_fraction * static_cast<double>(space.valid_configs().size()));
    lists_ = {&space.values_cp(), &space.values_tp(), &space.values_pp(), &space.values_dp(),
              &space.values_ep()};
    // Stage 1: powers of 4 present in the grid, plus the grid's smallest value; discrete
    // knobs at their defaults.
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
    // A stage-1 grid without one valid point (every coarse point invalid) starts from the
    // first valid configuration instead.
    if (pending_.empty() && !space.valid_configs().empty()) add(space.valid_configs().front());
  }

  std::size_t propose(std::span<ParallelConfig> out) override {
    while (next_ >= pending_.size()) {
      pending_.clear();
      next_ = 0;
      if (!advance()) return 0;
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
  // Queues a valid canonical config not seen before; true when it is valid (seen or not).
  bool add(const ParallelConfig& c) {
    if (!space_.is_valid_canonical(c)) return false;
    if (seen_.count(c)) return true;
    if (static_cast<double>(seen_.size()) >= budget_) return false;  // evaluation budget spent
    Seen s;
    s.order = seen_.size();
    seen_.emplace(c, s);
    pending_.push_back(c);
    return true;
  }

  // Lower is better; infeasible configs are worse than every feasible one.
  bool better(const Seen& a, const Seen& b) const {
    if (a.feasible != b.feasible) return a.feasible;
    if (!a.feasible) return false;  // two infeasible: neither is better
    return a.primary < b.primary;
  }

  // Called when every proposal so far has been scored; queues the next batch or says done.
  bool advance() {
    if (!started_) {
      started_ = true;
      // Survivors of stage 1: the top K, feasible first, by score, then proposal order.
      std::vector<std::pair<const ParallelConfig*, const Seen*>> cand;
      for (const auto& [c, s] : seen_)
        if (s.scored) cand.emplace_back(&c, &s);
      std::sort(cand.begin(), cand.end(), [this](const auto& a, const auto& b) {
        if (better(*a.second, *b.second)) return true;
        if (better(*b.second, *a.second)) return false;
        if (a.second->feasible && a.second->primary != b.second->primary)
          return a.second->primary < b.second->primary;
        return a.second->order < b.second->order;
      });
      const std::size_t k =
          std::min<std::size_t>(cand.size(), static_cast<std::size_t>(std::max<std::int64_t>(1, o_.keep)));
      for (std::size_t i = 0; i < k; ++i) survivors_.push_back(*cand[i].first);
      return start_next_survivor();
    }
    // The tier just scored: move to its best neighbour if that improves, else the next tier.
    const Seen& cur = seen_.at(cur_);
    const ParallelConfig* best = nullptr;
    for (const ParallelConfig& n : tier_members_) {
      const Seen& s = seen_.at(n);
      if (!s.scored) continue;
      if (better(s, best ? seen_.at(*best) : cur)) best = &n;
    }
    if (best && steps_ < o_.max_rounds * 8) {
      cur_ = *best;
      ++steps_;
      tier_ = 0;
    } else {
      ++tier_;
    }
    return queue_tier();
  }

  bool start_next_survivor() {
    while (next_survivor_ < survivors_.size()) {
      cur_ = survivors_[next_survivor_++];
      if (climbed_.count(cur_)) continue;
      tier_ = 0;
      steps_ = 0;
      if (queue_tier()) return true;
    }
    return false;
  }

  // Queues the unseen members of the current tier around cur_; skips empty tiers. When every
  // tier is exhausted without improvement, cur_ is a local optimum: the next survivor.
  bool queue_tier() {
    for (;;) {
      if (tier_ > (o_.pair_moves ? 2 : 1)) {
        climbed_.emplace(cur_, Seen{});
        return start_next_survivor();
      }
      tier_members_.clear();
      if (tier_ == 0)
        numeric_moves();
      else if (tier_ == 1)
        discrete_moves();
      else
        pair_moves();
      bool improved_known = false;
      for (const ParallelConfig& n : tier_members_) {
        const auto& s = seen_.at(n);
        if (s.scored && better(s, seen_.at(cur_))) improved_known = true;
      }
      if (!pending_.empty() || improved_known) return !pending_.empty() || advance();
      ++tier_;
    }
  }

  void consider(const ParallelConfig& c) {
    const ParallelConfig k = space_.canonicalize(c);
    if (k == cur_) return;
    if (add(k) && std::find(tier_members_.begin(), tier_members_.end(), k) == tier_members_.end())
      tier_members_.push_back(k);
  }

  int position(int k, std::int32_t v) const {
    const auto& l = *lists_[k];
    const auto it = std::lower_bound(l.begin(), l.end(), v);
    return (it != l.end() && *it == v) ? static_cast<int>(it - l.begin()) : -1;
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

  // Tier 0: one numeric knob one grid step up or down.
  void numeric_moves() {
    for (int k = 0; k < kNumeric; ++k)
      for (int step : {-1, 1}) {
        ParallelConfig c = cur_;
        if (move(c, k, step)) consider_activated(c);
      }
  }

  // The canonical values knob `d` (0 kv, 1 ffn, 2 tp placement, 3 cp placement, 4 ring) can
  // take at c: more than one when the knob makes a difference there.
  template <class T, class Set>
  static std::vector<T> reachable(const SearchSpace& s, const ParallelConfig& c, const std::vector<T>& values,
                                  Set set) {
    std::vector<T> out;
    for (T v : values) {
      ParallelConfig x = c;
      set(x, v, false);
      x = s.canonicalize(x);
      T got{};
      set(x, got, true);
      if (std::find(out.begin(), out.end(), got) == out.end()) out.push_back(got);
    }
    return out;
  }

  // Considers c with every value of the discrete knobs that gain values moving from cur_ to c
  // (cp leaving 1 brings ring variant, CP placement and TP+CP scope into play; tp leaving 1
  // the TP placement; dp leaving 1 the TP+CP+DP scope; tp passing h_kv the KV shard mode);
  // the other discrete knobs keep cur_'s values.
  void consider_activated(const ParallelConfig& c) {
    const auto grows = [](const auto& before, const auto& after) {
      for (const auto& v : after)
        if (std::find(before.begin(), before.end(), v) == before.end()) return true;
      return false;
    };
    auto kv_set = [](ParallelConfig& x, KvShardMode& v, bool read = false) {
      if (read)
        v = x.kv_shard_mode;
      else
        x.kv_shard_mode = v;
    };
    auto ffn_set = [](ParallelConfig& x, FfnShardScope& v, bool read = false) {
      if (read)
        v = x.ffn_shard_scope;
      else
        x.ffn_shard_scope = v;
    };
    auto tpp_set = [](ParallelConfig& x, std::int8_t& v, bool read = false) {
      if (read)
        v = x.tp_placement;
      else
        x.tp_placement = v;
    };
    auto cpp_set = [](ParallelConfig& x, std::int8_t& v, bool read = false) {
      if (read)
        v = x.cp_placement;
      else
        x.cp_placement = v;
    };
    auto ring_set = [](ParallelConfig& x, CpRingVariant& v, bool read = false) {
      if (read)
        v = x.cp_ring_variant;
      else
        x.cp_ring_variant = v;
    };
    const auto one = [](auto v) { return std::vector<decltype(v)>{v}; };
    auto kv = one(c.kv_shard_mode);
    auto ffn = one(c.ffn_shard_scope);
    auto tpp = one(c.tp_placement);
    auto cpp = one(c.cp_placement);
    auto ring = one(c.cp_ring_variant);
    {
      auto a = reachable<KvShardMode>(space_, c, space_.values_kv_shard_mode(), kv_set);
      if (grows(reachable<KvShardMode>(space_, cur_, space_.values_kv_shard_mode(), kv_set), a)) kv = a;
    }
    {
      auto a = reachable<FfnShardScope>(space_, c, space_.values_ffn_shard_scope(), ffn_set);
      if (grows(reachable<FfnShardScope>(space_, cur_, space_.values_ffn_shard_scope(), ffn_set), a)) ffn = a;
    }
    {
      auto a = reachable<std::int8_t>(space_, c, space_.values_tp_placement(), tpp_set);
      if (grows(reachable<std::int8_t>(space_, cur_, space_.values_tp_placement(), tpp_set), a)) tpp = a;
    }
    {
      auto a = reachable<std::int8_t>(space_, c, space_.values_cp_placement(), cpp_set);
      if (grows(reachable<std::int8_t>(space_, cur_, space_.values_cp_placement(), cpp_set), a)) cpp = a;
    }
    {
      auto a = reachable<CpRingVariant>(space_, c, space_.values_cp_ring_variant(), ring_set);
      if (grows(reachable<CpRingVariant>(space_, cur_, space_.values_cp_ring_variant(), ring_set), a))
        ring = a;
    }
    for (auto a : kv)
      for (auto b : ffn)
        for (auto t : tpp)
          for (auto p : cpp)
            for (auto r : ring) {
              ParallelConfig x = c;
              x.kv_shard_mode = a;
              x.ffn_shard_scope = b;
              x.tp_placement = t;
              x.cp_placement = p;
              x.cp_ring_variant = r;
              consider(x);
            }
  }

  // Tier 1: every other value of one discrete knob.
  void discrete_moves() {
    for (auto v : space_.values_kv_shard_mode()) {
      ParallelConfig c = cur_;
      c.kv_shard_mode = v;
      consider(c);
    }
    for (auto v : space_.values_ffn_shard_scope()) {
      ParallelConfig c = cur_;
      c.ffn_shard_scope = v;
      consider(c);
    }
    for (auto v : space_.values_tp_placement()) {
      ParallelConfig c = cur_;
      c.tp_placement = v;
      consider(c);
    }
    for (auto v : space_.values_cp_placement()) {
      ParallelConfig c = cur_;
      c.cp_placement = v;
      consider(c);
    }
    for (auto v : space_.values_cp_ring_variant()) {
      ParallelConfig c = cur_;
      c.cp_ring_variant = v;
      consider(c);
    }
  }

  // Tier 2: one numeric knob up while another goes down (keeps the PE count roughly), each
  // with every discrete value of the knobs the move brings into play.
  void pair_moves() {
    for (int up = 0; up < kNumeric; ++up)
      for (int down = 0; down < kNumeric; ++down) {
        if (up == down) continue;
        ParallelConfig c = cur_;
        if (!(move(c, up, 1) && move(c, down, -1))) continue;
        consider_activated(c);
      }
  }

  const SearchSpace& space_;
  TwoStageOptions o_;
  std::array<const std::vector<std::int32_t>*, kNumeric> lists_{};
  std::unordered_map<ParallelConfig, Seen, Hash> seen_;
  std::unordered_map<ParallelConfig, Seen, Hash> climbed_;  // local optima reached (as a set)
  std::vector<ParallelConfig> pending_;
  std::size_t next_ = 0;
  bool started_ = false;
  std::vector<ParallelConfig> survivors_;
  std::size_t next_survivor_ = 0;
  ParallelConfig cur_;
  int tier_ = 0;
  std::int64_t steps_ = 0;
  double budget_ = 0;
  std::vector<ParallelConfig> tier_members_;
};

}  // namespace

std::unique_ptr<SearchRun> TwoStageSearch::start(const SearchSpace& space) const {
  return std::make_unique<TwoStageRun>(space, o_);
}

}  // namespace tessera::plugins
