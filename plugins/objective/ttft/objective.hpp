#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Time to first token, s; lower is better.
//   serving study: the serving plugin's mean TTFT (queueing excluded)
//   prefill study: the step's latency (the prefill of the whole prompt: TTFT)
//   decode study:  refused (InputError): a decode step has no first token.
class TtftObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "s"; }
  double evaluate(const EvalContext&, const Workload& workload, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    if (step.serving) return step.serving->ttft_s;
    if (workload.mode != Mode::prefill)
      throw InputError(
          "objective/ttft: a decode study has no first token; use it with `tessera serve` or a prefill "
          "scenario (a decode step's time is objective/tpot)");
    return step.totals.latency_s;
  }
};

}  // namespace tessera::plugins
