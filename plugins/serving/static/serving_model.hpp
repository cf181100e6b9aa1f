#pragma once
// serving/static: a fixed batch of B equal requests that start and finish together — the
// single-step semantics of `tessera run` at request level (docs/physics.md §12.1).
#include <algorithm>
#include <cstdint>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

class StaticServing final : public ServingModel {
 public:
  void evaluate(const EvalContext&, const ParallelConfig& c, const ServingRequest& r, const ServingPoint& p,
                StepTimer& timer, ServingMetrics& out) const override {
    const std::int64_t B = std::max<std::int64_t>(1, p.batch);
    const double isl = static_cast<double>(r.input), osl = static_cast<double>(r.output);
    // The budget is shared by the B prompts of the batch: each prefills in chunks of budget / B.
    const std::int64_t chunk = p.token_budget > 0 ? std::max<std::int64_t>(1, p.token_budget / B) : 0;
    out.batch = B;
    out.chunk = chunk;
    // A cached prefix (r.cached tokens) is not computed: the prompts prefill the rest after it.
    const std::int64_t computed = r.input - std::clamp<std::int64_t>(r.cached, 0, r.input - 1);
    out.chunk_iterations = chunk > 0 ? (computed + chunk - 1) / chunk : 1;
    out.kv_tokens_peak = static_cast<double>(B) * (isl + osl);
    out.kv_tokens_mean = static_cast<double>(B) * (isl + osl / 2);
    out.kv_fits = timer.kv_admits(B, r.input, r.output, false);  // all B at ISL + OSL at once
    // Drafting's limits (docs/physics.md §12.8).
    if ((out.infeasible = speculative_refusal(c, p, B)) != nullptr) return;
    out.ttft_s = computed == r.input ? timer.prefill(B, r.input, chunk)
                                     : cached_prefill(B, r.input, computed, chunk, timer);
    // Every decode step at the mean context of the OSL - 1 steps: ISL + (OSL - 1) / 2. With
    // speculative decoding (docs/physics.md §12.8) a step is k drafts and a verify of k + 1 tokens
    // per sequence, and gains each tokens_per_verify tokens (the tail: one such step).
    const double context = isl + (osl - 1) / 2;
    const double step = p.speculative_tokens > 0 ? speculative_iteration(timer, p, B, context)
                                                 : timer.decode_step(B, context);
    out.tpot_s = step / speculative_gain(p, r.output);
    out.tpot_tail_s = step;
    out.e2e_s = out.ttft_s + (osl - 1) * out.tpot_s;
    out.tokens_per_s = out.e2e_s > 0 ? static_cast<double>(B) * osl / out.e2e_s : 0;
    out.requests_per_s = out.e2e_s > 0 ? static_cast<double>(B) / out.e2e_s : 0;
    out.prefill_time_share = out.e2e_s > 0 ? out.ttft_s / out.e2e_s : 0;
  }

 private:
  // The B prompts' last `computed` tokens of `isl`, in chunks of `chunk` (0: whole) after the
  // cached ones, the B chunks of each iteration timed together, the stages in series.
  static double cached_prefill(std::int64_t B, std::int64_t isl, std::int64_t computed, std::int64_t chunk,
                               StepTimer& timer) {
    const std::int64_t c = chunk > 0 ? chunk : computed;
    double t = 0;
    for (std::int64_t done = 0; done < computed; done += c) {
      const std::int64_t tokens = std::min(c, computed - done);
      t += timer.mixed_step(0, 0, B, tokens, isl - computed + done, done + tokens == computed);
    }
    return t;
  }
};

}  // namespace tessera::plugins
