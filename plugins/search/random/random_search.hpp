#pragma once
#include <cstdint>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

// `samples` configurations drawn uniformly without replacement from the valid canonical
// space with a std::mt19937_64 seeded by `seed` and a portable bounded draw (rejection
// sampling, no std::uniform_int_distribution), so the choice is the same on every platform.
// All of the space when samples >= its size. Proposed in the space's order.
class RandomSearch final : public SearchStrategy {
 public:
  RandomSearch(std::int64_t samples, std::uint64_t seed) : samples_(samples), seed_(seed) {}
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override;

 private:
  std::int64_t samples_;
  std::uint64_t seed_;
};

}  // namespace tessera::plugins
