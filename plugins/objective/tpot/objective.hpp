#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Time per output token (after the first), s; lower is better.
//   serving study: the serving plugin's mean TPOT (token-weighted over decode-only and mixed
//                  iterations)
//   decode study:  the step's latency (each sequence's next token)
//   prefill study: refused (InputError): a prefill has no output tokens after the first.
class TpotObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "s"; }
  double evaluate(const EvalContext&, const Workload& workload, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    if (step.serving) return step.serving->tpot_s;
    if (workload.mode != Mode::decode)
      throw InputError(
          "objective/tpot: a prefill study has no tokens after the first; use it with `tessera serve` or a "
          "decode scenario (a prefill's time is objective/ttft)");
    return step.totals.latency_s;
  }
};

}  // namespace tessera::plugins
