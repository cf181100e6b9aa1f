#pragma once
#include <cstdint>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

struct TwoStageOptions {
  std::int64_t keep = 8;   // stage-1 survivors each hill-climbed in turn (K)
  bool pair_moves = true;  // also move two numeric knobs at once, one up and one down
  std::int64_t max_rounds = 32;
  double max_fraction = 0.18;  // evaluation budget, as a fraction of the valid configs (at least 8)
};

// SPEC §5 two_stage: stage 1 a coarse grid (numeric knobs at the grid's powers of 4 and its
// smallest value, discrete knobs at their defaults); stage 2 the neighbourhood of the top K
// (numeric knobs one step up or down in the fine grid — and, with pair_moves, one up while
// another goes down, which keeps the PE count — every discrete value), repeated from the new
// top K while the best improves (a hill-climb). Nothing is evaluated twice.
class TwoStageSearch final : public SearchStrategy {
 public:
  explicit TwoStageSearch(TwoStageOptions o) : o_(o) {}
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override;

 private:
  TwoStageOptions o_;
};

}  // namespace tessera::plugins
