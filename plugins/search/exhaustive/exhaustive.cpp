#include "exhaustive.hpp"

#include <algorithm>

namespace tessera::plugins {

namespace {

class ExhaustiveRun final : public SearchRun {
 public:
  explicit ExhaustiveRun(const SearchSpace& space) : configs_(space.valid_configs()) {}
  std::size_t propose(std::span<ParallelConfig> out) override {
    const std::size_t n = std::min(out.size(), configs_.size() - next_);
    std::copy_n(configs_.begin() + static_cast<std::ptrdiff_t>(next_), n, out.begin());
    next_ += n;
    return n;
  }
  void receive(std::span<const ParallelConfig>, std::span<const SearchScore>) override {}

 private:
  const std::vector<ParallelConfig>& configs_;
  std::size_t next_ = 0;
};

}  // namespace

std::unique_ptr<SearchRun> ExhaustiveSearch::start(const SearchSpace& space) const {
  return std::make_unique<ExhaustiveRun>(space);
}

}  // namespace tessera::plugins
