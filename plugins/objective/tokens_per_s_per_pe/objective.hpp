#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Output tokens per second per PE, all replicas, tok/s; higher is better.
//   serving study: dp · tokens/s of one replica (the serving plugin's) / PEs
//   decode study:  the step's throughput (dp·B / latency; the pipeline-full one when reported,
//                  pp > 1 and B >= pp, as objective/throughput) / PEs
//   prefill study: refused (InputError): a prefill's tokens are input tokens, not output.
class TokensPerSPerPeObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::maximize; }
  const char* unit() const override { return "tok/s"; }
  double evaluate(const EvalContext&, const Workload& workload, const ParallelConfig& c,
                  const EvaluatedStep& step) const override {
    const double pes = static_cast<double>(c.pes());
    if (step.serving) return static_cast<double>(c.dp) * step.serving->tokens_per_s / pes;
    if (workload.mode != Mode::decode)
      throw InputError(
          "objective/tokens_per_s_per_pe: a prefill study produces no output tokens (its throughput is "
          "prompt tokens: objective/throughput); use it with `tessera serve` or a decode scenario");
    const StepTotals& t = step.totals;
    return (t.pipeline_throughput_tok_s > 0 ? t.pipeline_throughput_tok_s : t.throughput_tok_s) / pes;
  }
};

}  // namespace tessera::plugins
