#include "random_search.hpp"

#include <algorithm>
#include <numeric>
#include <random>
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

class RandomRun final : public SearchRun {
 public:
  RandomRun(const SearchSpace& space, std::int64_t samples, std::uint64_t seed) {
    const auto& all = space.valid_configs();
    const std::size_t n = all.size();
    const std::size_t m =
        std::min<std::size_t>(n, static_cast<std::size_t>(std::max<std::int64_t>(0, samples)));
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    if (m < n) {
      // Partial Fisher-Yates: the first m entries are a uniform sample without replacement.
      std::mt19937_64 rng(seed);
      for (std::size_t i = 0; i < m; ++i) {
        const std::size_t j = i + static_cast<std::size_t>(draw(rng, n - i));
        std::swap(idx[i], idx[j]);
      }
      idx.resize(m);
      std::sort(idx.begin(), idx.end());
    }
    picked_.reserve(idx.size());
    for (std::size_t i : idx) picked_.push_back(all[i]);
  }
  std::size_t propose(std::span<ParallelConfig> out) override {
    const std::size_t n = std::min(out.size(), picked_.size() - next_);
    std::copy_n(picked_.begin() + static_cast<std::ptrdiff_t>(next_), n, out.begin());
    next_ += n;
    return n;
  }
  void receive(std::span<const ParallelConfig>, std::span<const SearchScore>) override {}

 private:
  std::vector<ParallelConfig> picked_;
  std::size_t next_ = 0;
};

}  // namespace

std::unique_ptr<SearchRun> RandomSearch::start(const SearchSpace& space) const {
  return std::make_unique<RandomRun>(space, samples_, seed_);
}

}  // namespace tessera::plugins
