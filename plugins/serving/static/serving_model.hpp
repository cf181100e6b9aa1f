#pragma once
// serving/static: a fixed batch of B equal requests that start and finish together — the
// single-step semantics of `tessera run` at request level (docs/physics.md §12.1).
#include <algorithm>
#include <cstdint>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

class StaticServing final : public ServingModel {
 public:
  void evaluate(const EvalContext&, const ParallelConfig&, const ServingRequest& r, const ServingPoint& p,
                StepTimer& timer, ServingMetrics& out) const override {
    const std::int64_t B = std::max<std::int64_t>(1, p.batch);
    const double isl = static_cast<double>(r.input), osl = static_cast<double>(r.output);
    // The budget is shared by the B prompts of the batch: each prefills in chunks of budget / B.
    const std::int64_t chunk = p.token_budget > 0 ? std::max<std::int64_t>(1, p.token_budget / B) : 0;
    out.batch = B;
    out.chunk = chunk;
    out.chunk_iterations = chunk > 0 ? (r.input + chunk - 1) / chunk : 1;
    out.kv_tokens_peak = static_cast<double>(B) * (isl + osl);
    out.kv_tokens_mean = static_cast<double>(B) * (isl + osl / 2);
    out.kv_fits = timer.kv_admits(B, r.input, r.output, false);  // all B at ISL + OSL at once
    out.ttft_s = timer.prefill(B, r.input, chunk);
    // Every decode step at the mean context of the OSL - 1 steps: ISL + (OSL - 1) / 2.
    out.tpot_s = timer.decode_step(B, isl + (osl - 1) / 2);
    out.tpot_tail_s = out.tpot_s;
    out.e2e_s = out.ttft_s + (osl - 1) * out.tpot_s;
    out.tokens_per_s = out.e2e_s > 0 ? static_cast<double>(B) * osl / out.e2e_s : 0;
    out.requests_per_s = out.e2e_s > 0 ? static_cast<double>(B) / out.e2e_s : 0;
    out.prefill_time_share = out.e2e_s > 0 ? out.ttft_s / out.e2e_s : 0;
  }
};

}  // namespace tessera::plugins
