// The serving points of a serve study's sweep (analysis/serving/serving_points.hpp).
#include "analysis/serving/serving_points.hpp"

namespace tessera {

std::vector<ServingPoint> serving_points(const Sweep& sweep, const SpeculativeSpec& spec,
                                         std::vector<double>* acceptances) {
  const std::vector<std::int64_t> batches =
      sweep.serving_batch.empty() ? std::vector<std::int64_t>{1} : sweep.serving_batch;
  const std::vector<std::int64_t> budgets =
      sweep.serving_token_budget.empty() ? std::vector<std::int64_t>{0} : sweep.serving_token_budget;
  // Speculative decoding (docs/physics.md §12.8): the draft lengths and acceptance rates swept,
  // else the block's own (no block: k = 0, one point).
  const std::vector<std::int64_t> steps = !sweep.serving_speculative_steps.empty()
                                              ? sweep.serving_speculative_steps
                                              : std::vector<std::int64_t>{spec.given ? spec.steps : 0};
  const std::vector<double> swept =
      !sweep.serving_acceptance.empty() ? sweep.serving_acceptance : std::vector<double>{spec.acceptance};
  std::vector<ServingPoint> points;
  if (acceptances) acceptances->clear();
  for (std::int64_t b : batches)
    for (std::int64_t t : budgets)
      for (std::int64_t k : steps)
        for (double a : swept) {
          SpeculativeSpec at = spec;
          at.steps = k;
          if (!sweep.serving_acceptance.empty()) at.acceptance = a;
          points.push_back(ServingPoint{.batch = b,
                                        .token_budget = t,
                                        .speculative_tokens = at.on() ? k : 0,
                                        .tokens_per_verify = at.tokens_per_verify()});
          if (acceptances) acceptances->push_back(at.on() ? at.acceptance : -1);
          if (!at.on()) break;  // a point that drafts nothing is one point whatever rates are swept
        }
  return points;
}

}  // namespace tessera
