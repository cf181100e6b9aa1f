#pragma once
// serving/decode_only — the worked example of docs/plugin-guide.md §10 "serving": continuous
// batching as if prefill cost the decoding sequences nothing. TTFT is one prompt prefilled
// alone in chunks of the budget (plus a fixed scheduler delay), TPOT the decode step of the B
// sequences at their mean context. It is the optimistic bound serving/aggregated improves on.
#include <algorithm>
#include <cstdint>

#include "tessera/sdk.hpp"

namespace example {

class DecodeOnlyServing final : public tessera::ServingModel {
 public:
  explicit DecodeOnlyServing(double scheduler_delay_s) : delay_(scheduler_delay_s) {}

  // Called by the host once per configuration and serving point, from several threads at once:
  // const, no allocation; `timer` is this thread's, `out` was reset by the host.
  void evaluate(const tessera::EvalContext&, const tessera::ParallelConfig&, const tessera::ServingRequest& r,
                const tessera::ServingPoint& p, tessera::StepTimer& timer,
                tessera::ServingMetrics& out) const override {
    const std::int64_t B = std::max<std::int64_t>(1, p.batch);
    const double isl = static_cast<double>(r.input), osl = static_cast<double>(r.output);
    out.batch = B;
    out.max_batch = p.token_budget;  // a decode iteration of B tokens must fit the budget
    if (p.token_budget > 0 && B > p.token_budget) {
      out.infeasible = "decode_only: the B decode tokens of one iteration exceed the token budget";
      return;  // a static string: the host keeps the pointer
    }
    out.chunk = p.token_budget;  // one prompt alone takes the whole budget (0: the whole prompt)
    out.chunk_iterations = p.token_budget > 0 ? (r.input + p.token_budget - 1) / p.token_budget : 1;
    out.kv_tokens_peak = static_cast<double>(B) * (isl + osl);
    out.kv_tokens_mean = static_cast<double>(B) * (isl + osl / 2);
    out.kv_fits = timer.kv_fits(B, r.input + r.output);  // the conservative rule
    out.ttft_s = delay_ + timer.prefill(1, r.input, p.token_budget);
    out.tpot_s = out.tpot_tail_s = timer.decode_step(B, isl + osl / 2);
    out.e2e_s = out.ttft_s + (osl - 1) * out.tpot_s;
    // B sequences, one token each per decode step; prefill takes no decode time here.
    out.tokens_per_s = static_cast<double>(B) / out.tpot_s;
    out.requests_per_s = out.tokens_per_s / osl;
    out.prefill_time_share = 0;
  }

 private:
  double delay_;
};

}  // namespace example
