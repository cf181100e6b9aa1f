#include "random_search.hpp"

#include <algorithm>
#include <random>
#include <unordered_map>
#include <vector>

namespace tessera::plugins {

namespace {

std::uint64_t draw(std::mt19937_64& rng, std::uint64_t n) {
  // Reject the top 2^64 mod n values so every residue is equally likely.
  const std::uint64_t reject_below = (0 - n) % n;  // 2^64 mod n
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= reject_below) return x % n;
  }
}

// A partial Fisher-Yates shuffle of the positions 0..n-1 of the space's stable order, kept
// sparse: only the positions a swap has touched are stored (at most 2 per draw), so memory is
// proportional to the sample, not to the space. The draws, and so the sample, are exactly those
// of the dense shuffle over a vector of every position.
std::vector<std::uint64_t> sample_positions(std::uint64_t n, std::uint64_t m, std::uint64_t seed) {
  std::unordered_map<std::uint64_t, std::uint64_t> moved;
  moved.reserve(static_cast<std::size_t>(2 * m));
  const auto at = [&moved](std::uint64_t i) {
    const auto it = moved.find(i);
    return it == moved.end() ? i : it->second;
  };
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> picked(static_cast<std::size_t>(m));
  for (std::uint64_t i = 0; i < m; ++i) {
    const std::uint64_t j = i + draw(rng, n - i);
    const std::uint64_t vi = at(i), vj = at(j);
    moved[j] = vi;  // position i is never read again: only j keeps a value
    picked[static_cast<std::size_t>(i)] = vj;
  }
  std::sort(picked.begin(), picked.end());
  return picked;
}

class RandomRun final : public SearchRun {
 public:
  // Reads the space through valid_count() and valid_range() only: the host's grid answers both
  // from its compact index, without building the list of every configuration.
  RandomRun(const SearchSpace& space, std::int64_t samples, std::uint64_t seed) : space_(space) {
    const std::uint64_t n = space.valid_count();
    const auto want = static_cast<std::uint64_t>(std::max<std::int64_t>(0, samples));
    all_ = want >= n;
    if (all_)
      count_ = n;
    else
      picked_ = sample_positions(n, want, seed);
    if (!all_) count_ = picked_.size();
  }
  std::size_t propose(std::span<ParallelConfig> out) override {
    if (all_) {
      const std::size_t k = space_.valid_range(next_, out);
      next_ += k;
      return k;
    }
    const std::size_t k = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), count_ - next_));
    for (std::size_t i = 0; i < k; ++i)
      space_.valid_range(picked_[static_cast<std::size_t>(next_ + i)], out.subspan(i, 1));
    next_ += k;
    return k;
  }
  void receive(std::span<const ParallelConfig>, std::span<const SearchScore>) override {}

 private:
  const SearchSpace& space_;
  bool all_ = false;
  std::vector<std::uint64_t> picked_;  // sampled positions, ascending (the space's order)
  std::uint64_t count_ = 0;
  std::uint64_t next_ = 0;
};

}  // namespace

std::unique_ptr<SearchRun> RandomSearch::start(const SearchSpace& space) const {
  return std::make_unique<RandomRun>(space, samples_, seed_);
}

}  // namespace tessera::plugins
