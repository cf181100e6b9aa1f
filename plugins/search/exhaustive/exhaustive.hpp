#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Every valid canonical configuration of the sweep grid, in the space's order.
class ExhaustiveSearch final : public SearchStrategy {
 public:
  std::unique_ptr<SearchRun> start(const SearchSpace& space) const override;
};

}  // namespace tessera::plugins
