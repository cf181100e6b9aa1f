#pragma once
#include <cstdint>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

struct TwoStageOptions {
  std::int64_t keep = 3;      // stage-1 tuples (best first) each climbed from, in turn (K)
  bool pair_moves = true;     // also move two numeric knobs one grid step each (any signs)
  double max_fraction = 1.0;  // evaluation budget, fraction of the valid configs (1 = none)
};

// docs/specification.md §5 "two_stage", as a local search over the numeric tuples (cp, tp, pp, dp, ep) of the
// grid, each tuple valued by the best of ALL its discrete-knob combinations:
//   stage 1: the coarse tuples (each numeric knob at the grid's powers of 4, its smallest and
//            its largest value);
//   stage 2: from each of the best K coarse tuples in turn, a climb until no neighbour is
//            better — neighbours in tiers: one numeric knob one grid step, one numeric knob at
//            any other grid value, then (pair_moves) two knobs one grid step each in any
//            directions — that walks across ties (plateaus) before it stops.
// The result is a local optimum of that neighbourhood (README.md states the guarantee).
// Nothing is evaluated twice.
class TwoStageSearch final : public SearchStrategy {
 public:
  explicit TwoStageSearch(TwoStageOptions o) : o_(o) {}
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override;

 private:
  TwoStageOptions o_;
};

}  // namespace tessera::plugins
