#include "exhaustive.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace {

// Walks the space in its order through valid_range(): the list of every configuration is never
// built, so a space of 10^7 configurations costs no more memory than one of 10^3.
class ExhaustiveRun final : public SearchRun {
 public:
  explicit ExhaustiveRun(const SearchSpace& space) : space_(space) {}
  std::size_t propose(std::span<ParallelConfig> out) override {
    const std::size_t n = space_.valid_range(next_, out);
    next_ += n;
    return n;
  }
  void receive(std::span<const ParallelConfig>, std::span<const SearchScore>) override {}

 private:
  const SearchSpace& space_;
  std::uint64_t next_ = 0;
};

}  // namespace

std::unique_ptr<SearchRun> ExhaustiveSearch::start(const SearchSpace& space) const {
  return std::make_unique<ExhaustiveRun>(space);
}

}  // namespace tessera::plugins
