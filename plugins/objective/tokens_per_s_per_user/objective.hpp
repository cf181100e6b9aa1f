#pragma once
#include <string>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Output tokens per second one user (one sequence) sees, tok/s; higher is better.
//   serving study: 1 / TPOT (the serving plugin's mean time per output token)
//   decode study:  1 / step latency (every sequence gets one token per step)
//   prefill study: refused (InputError): a prefill produces no stream of tokens to rate.
class TokensPerSPerUserObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::maximize; }
  const char* unit() const override { return "tok/s"; }
  double evaluate(const EvalContext&, const Workload& workload, const ParallelConfig&,
                  const EvaluatedStep& step) const override {
    const double t = step.serving ? step.serving->tpot_s : step.totals.latency_s;
    if (!step.serving && workload.mode != Mode::decode)
      throw InputError(
          "objective/tokens_per_s_per_user: a prefill study produces no output stream to rate; use it with "
          "`tessera serve` or a decode scenario (or rank prefill by latency)");
    return t > 0 ? 1.0 / t : 0.0;
  }
};

}  // namespace tessera::plugins
