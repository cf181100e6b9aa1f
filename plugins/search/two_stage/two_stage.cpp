#include "two_stage.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <limits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tessera::plugins {

namespace {

constexpr int kNumeric = 5;  // cp, tp, pp, dp, ep
// Two tuple values closer than this (relative) are a tie: a plateau, not an improvement.
constexpr double kTieRelative = 1e-12;

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

// The best of a tuple's evaluated configurations: feasible first, then the lower primary score.
struct TupleValue {
  double primary = std::numeric_limits<double>::infinity();
  bool feasible = false;
};

bool better(const TupleValue& a, const TupleValue& b) {
  if (!a.feasible) return false;
  if (!b.feasible) return true;
  return a.primary < b.primary - kTieRelative * std::fabs(b.primary);
}

bool tie(const TupleValue& a, const TupleValue& b) {
  return a.feasible && b.feasible &&
         std::fabs(a.primary - b.primary) <=
             kTieRelative * std::max(std::fabs(a.primary), std::fabs(b.primary));
}

// A tuple is the numeric knobs' grid positions, flattened (cp outermost, ep innermost).
using TupleId = std::uint64_t;

class TwoStageRun final : public SearchRun {
 public:
  TwoStageRun(const SearchSpace& space, TwoStageOptions o) : space_(space), o_(o) {
    lists_ = {&space.values_cp(), &space.values_tp(), &space.values_pp(), &space.values_dp(),
              &space.values_ep()};
    tuples_ = 1;
    for (int k = kNumeric - 1; k >= 0; --k) {
      stride_[static_cast<std::size_t>(k)] = tuples_;
      tuples_ *= std::max<std::uint64_t>(1, lists_[static_cast<std::size_t>(k)]->size());
    }
    for (const auto& l : lists_)
      if (l->empty()) tuples_ = 0;
    if (o.max_fraction < 1)
      budget_ = std::max(8.0, o.max_fraction * static_cast<double>(space.valid_count()));
    // Every combination of the discrete knobs' listed values (canonical forms are taken per tuple).
    const ParallelConfig d = space.defaults();
    for (auto kv : space.values_kv_shard_mode())
      for (auto ffn : space.values_ffn_shard_scope())
        for (auto tpp : space.values_tp_placement())
          for (auto cpp : space.values_cp_placement())
            for (auto ring : space.values_cp_ring_variant()) {
              ParallelConfig c = d;
              c.kv_shard_mode = kv;
              c.ffn_shard_scope = ffn;
              c.tp_placement = tpp;
              c.cp_placement = cpp;
              c.cp_ring_variant = ring;
              combos_.push_back(c);
            }
    if (combos_.empty()) combos_.push_back(d);
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
      const auto it = values_.find(tuple_of(configs[i]));
      if (it == values_.end()) continue;
      const TupleValue v{scores[i].primary, scores[i].feasible && std::isfinite(scores[i].primary)};
      TupleValue& t = it->second;
      if (v.feasible && (!t.feasible || v.primary < t.primary)) t = v;
    }
  }

 private:
  enum class Phase { start, stage1_scored, tier_scored, everything, done };

  // ---- tuples ----------------------------------------------------------------------------

  int position(int k, std::int32_t v) const {
    const auto& l = *lists_[static_cast<std::size_t>(k)];
    const auto it = std::lower_bound(l.begin(), l.end(), v);
    return (it != l.end() && *it == v) ? static_cast<int>(it - l.begin()) : -1;
  }

  TupleId tuple_of(const ParallelConfig& c) const {
    ParallelConfig x = c;
    TupleId t = 0;
    for (int k = 0; k < kNumeric; ++k) {
      const int p = position(k, knob(x, k));
      if (p < 0) return tuples_;  // outside the grid: never a tuple of ours
      t += static_cast<TupleId>(p) * stride_[static_cast<std::size_t>(k)];
    }
    return t;
  }

  int coord(TupleId t, int k) const {
    const std::size_t n = lists_[static_cast<std::size_t>(k)]->size();
    return static_cast<int>((t / stride_[static_cast<std::size_t>(k)]) % n);
  }

  // t with knob k moved to grid position p.
  TupleId with(TupleId t, int k, int p) const {
    const auto s = stride_[static_cast<std::size_t>(k)];
    return t - static_cast<TupleId>(coord(t, k)) * s + static_cast<TupleId>(p) * s;
  }

  // Queues every valid canonical configuration of tuple t (all discrete combinations) unless
  // t was requested before; t joins the current round either way.
  void request(TupleId t) {
    round_.push_back(t);
    if (values_.count(t)) return;
    values_.emplace(t, TupleValue{});
    ParallelConfig base;
    for (int k = 0; k < kNumeric; ++k)
      knob(base, k) = (*lists_[static_cast<std::size_t>(k)])[static_cast<std::size_t>(coord(t, k))];
    const std::size_t first = pending_.size();
    for (const ParallelConfig& d : combos_) {
      ParallelConfig c = d;
      for (int k = 0; k < kNumeric; ++k) knob(c, k) = knob(base, k);
      c = space_.canonicalize(c);
      if (!space_.is_valid_canonical(c)) continue;
      // Configurations of different tuples never coincide (canonical forms keep the numeric
      // knobs), so duplicates are looked for among this tuple's only.
      if (std::find(pending_.begin() + static_cast<std::ptrdiff_t>(first), pending_.end(), c) !=
          pending_.end())
        continue;
      if (budget_ > 0 && static_cast<double>(queued_ + 1) > budget_) return;  // budget spent
      pending_.push_back(c);
      ++queued_;
    }
  }

  const TupleValue& value(TupleId t) const { return values_.at(t); }

  // ---- the state machine: called when everything proposed so far has been scored ---------

  bool advance() {
    for (;;) {
      switch (phase_) {
        case Phase::start:
          stage1();
          break;
        case Phase::stage1_scored:
          choose_starts();
          break;
        case Phase::tier_scored:
          if (improved()) break;
          if (++tier_ < tiers()) {
            queue_tier(expanding_);
          } else {
            finish_expansion();
          }
          break;
        case Phase::everything:
          if (!next_chunk()) phase_ = Phase::done;
          break;
        case Phase::done:
          return false;
      }
      if (!pending_.empty()) return true;
    }
  }

  // Stage 1: each numeric knob at its grid's powers of 4, its smallest and its largest value
  // (the coarse grid spans every knob's whole range).
  void stage1() {
    std::array<std::vector<int>, kNumeric> coarse;
    for (int k = 0; k < kNumeric; ++k) {
      const auto& l = *lists_[static_cast<std::size_t>(k)];
      for (std::size_t p = 0; p < l.size(); ++p) {
        bool pow4 = false;
        for (std::int64_t q = 1; q <= l[p]; q *= 4) pow4 = pow4 || q == l[p];
        if (pow4 || p == 0 || p + 1 == l.size())
          coarse[static_cast<std::size_t>(k)].push_back(static_cast<int>(p));
      }
    }
    round_.clear();
    if (tuples_ > 0) {
      std::vector<TupleId> ts{0};
      for (int k = 0; k < kNumeric; ++k) {
        std::vector<TupleId> next;
        for (TupleId t : ts)
          for (int p : coarse[static_cast<std::size_t>(k)]) next.push_back(with(t, k, p));
        ts.swap(next);
      }
      for (TupleId t : ts) request(t);
    }
    phase_ = Phase::stage1_scored;
  }

  // The best K feasible stage-1 tuples (by value, then grid order) are the climbs' starts. No
  // feasible stage-1 tuple: every tuple is evaluated (the search degrades to exhaustive).
  void choose_starts() {
    std::vector<TupleId> cand;
    for (TupleId t : round_)
      if (value(t).feasible) cand.push_back(t);
    std::sort(cand.begin(), cand.end(), [this](TupleId a, TupleId b) {
      if (value(a).primary != value(b).primary) return value(a).primary < value(b).primary;
      return a < b;
    });
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    const auto k = static_cast<std::size_t>(std::max<std::int64_t>(1, o_.keep));
    if (cand.size() > k) cand.resize(k);
    starts_ = std::move(cand);
    if (starts_.empty()) {
      phase_ = Phase::everything;
      return;
    }
    next_climb();
  }

  void next_climb() {
    while (next_start_ < starts_.size()) {
      const TupleId s = starts_[next_start_++];
      if (expanded_.count(s)) continue;  // an earlier climb went through it, and on from it
      best_ = s;
      plateau_.clear();
      on_plateau_.clear();
      on_plateau_.insert(s);
      expand(s);
      return;
    }
    phase_ = Phase::done;
  }

  int tiers() const { return o_.pair_moves ? 3 : 2; }

  // Starts scoring t's neighbours, tier by tier (a climb moves at the first tier that improves).
  void expand(TupleId t) {
    expanding_ = t;
    tier_ = 0;
    queue_tier(t);
  }

  // Tier 0: one numeric knob one grid step up or down. Tier 1: one numeric knob at every other
  // grid value. Tier 2: two numeric knobs one grid step each, in any directions.
  void queue_tier(TupleId t) {
    round_.clear();
    for (int a = 0; a < kNumeric; ++a) {
      const int na = static_cast<int>(lists_[static_cast<std::size_t>(a)]->size()), ca = coord(t, a);
      if (tier_ < 2) {
        for (int p = 0; p < na; ++p)
          if (p != ca && (std::abs(p - ca) == 1) == (tier_ == 0)) request(with(t, a, p));
        continue;
      }
      for (int b = a + 1; b < kNumeric; ++b) {
        const int nb = static_cast<int>(lists_[static_cast<std::size_t>(b)]->size()), cb = coord(t, b);
        for (int da : {-1, 1})
          for (int db : {-1, 1})
            if (ca + da >= 0 && ca + da < na && cb + db >= 0 && cb + db < nb)
              request(with(with(t, a, ca + da), b, cb + db));
      }
    }
    phase_ = Phase::tier_scored;
  }

  // After a tier is scored: the best neighbour strictly better than the climb's best becomes
  // the best and is expanded (true). Neighbours tied with the best join the plateau.
  bool improved() {
    const TupleId* top = nullptr;
    for (const TupleId& t : round_) {
      const TupleValue& v = value(t);
      if (better(v, top ? value(*top) : value(best_))) top = &t;
      if (tie(v, value(best_)) && on_plateau_.insert(t).second) plateau_.push_back(t);
    }
    if (!top) return false;
    best_ = *top;
    plateau_.clear();
    on_plateau_.clear();
    on_plateau_.insert(best_);
    expand(best_);
    return true;
  }

  // No neighbour of expanding_ improves: expand the next tuple of the plateau, or, when the
  // plateau is exhausted, the climb ends at a local optimum: the next start.
  void finish_expansion() {
    expanded_.insert(expanding_);
    if (plateau_.empty()) {
      next_climb();
      return;
    }
    const TupleId t = plateau_.front();
    plateau_.pop_front();
    expand(t);
  }

  // The fallback: every tuple not yet requested, a chunk at a time; false when none is left.
  bool next_chunk() {
    if (next_tuple_ >= tuples_) return false;
    round_.clear();
    constexpr TupleId kChunk = 1024;
    const TupleId end = std::min(tuples_, next_tuple_ + kChunk);
    for (; next_tuple_ < end; ++next_tuple_) request(next_tuple_);
    return true;
  }

  const SearchSpace& space_;
  TwoStageOptions o_;
  std::array<const std::vector<std::int32_t>*, kNumeric> lists_{};
  std::array<TupleId, kNumeric> stride_{};
  TupleId tuples_ = 0;
  double budget_ = 0;  // 0: none
  std::uint64_t queued_ = 0;
  std::vector<ParallelConfig> combos_;
  std::unordered_map<TupleId, TupleValue> values_;  // requested tuples and their values so far
  std::vector<ParallelConfig> pending_;
  std::size_t next_ = 0;
  Phase phase_ = Phase::start;
  std::vector<TupleId> round_;  // the tuples of the round being scored, in request order
  std::vector<TupleId> starts_;
  std::size_t next_start_ = 0;
  TupleId best_ = 0;       // the climb's best tuple
  TupleId expanding_ = 0;  // the tuple whose neighbours are being scored
  int tier_ = 0;           // which of its neighbour tiers
  std::deque<TupleId> plateau_;
  std::unordered_set<TupleId> on_plateau_;  // tuples tied with best_ already queued
  std::unordered_set<TupleId> expanded_;    // tuples whose whole neighbourhood was scored
  TupleId next_tuple_ = 0;
};

}  // namespace

std::unique_ptr<SearchRun> TwoStageSearch::start(const SearchSpace& space) const {
  return std::make_unique<TwoStageRun>(space, o_);
}

}  // namespace tessera::plugins
