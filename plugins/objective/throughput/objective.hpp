#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Tokens per second, all DP replicas; higher is better. With `pipelined` (default) and a
// pipeline-full decode throughput reported (pp > 1, B >= pp), that one is used.
class ThroughputObjective final : public Objective {
 public:
  explicit ThroughputObjective(bool pipelined) : pipelined_(pipelined) {}
  Direction direction() const override { return Direction::maximize; }
  const char* unit() const override { return "tok/s"; }
  double evaluate(const EvalContext&, const Workload&, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    const StepTotals& totals = step.totals;
    if (pipelined_ && totals.pipeline_throughput_tok_s > 0) return totals.pipeline_throughput_tok_s;
    return totals.throughput_tok_s;
  }

 private:
  bool pipelined_;
};

}  // namespace tessera::plugins
