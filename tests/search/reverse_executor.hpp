#pragma once
// An executor that computes a plan backwards (the last unit first) on one worker and merges it
// in order afterwards: a study whose result depends on the order its units finish in shows it.
#include "core/executor.hpp"

namespace tessera::test {

class ReverseExecutor final : public Executor {
 public:
  unsigned workers() const override { return 1; }
  void execute(std::size_t count, const ComputeFn& compute, const MergeFn& merge) override {
    for (std::size_t u = count; u-- > 0;) compute(u, UnitSlot{0, 1});
    for (std::size_t u = 0; u < count; ++u) merge(u);
  }
};

}  // namespace tessera::test
