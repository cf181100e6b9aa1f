#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Every valid canonical configuration of the sweep grid, in the space's order.
class ExhaustiveSearch final : public SearchStrategy {
 public:
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override;
  // A slice of the space is walked as the whole space's run walks it: the host may split the
  // search into work units.
  bool separable() const override { return true; }
};

}  // namespace tessera::plugins
