#pragma once
// serving/aggregated: steady-state continuous batching with chunked prefill on one replica
// (docs/physics.md §12.2). B sequences in flight, the prefilling ones among them; per cycle a
// long prompt's n_c chunk iterations (beside the other B - 1 decode tokens when mixed; alone,
// stalling decode, when alternating), or k = ceil(B / OSL) short prompts packed whole into one
// iteration (mixed), and the rest of the cycle is decode-only (pp > 1: its pipeline kept full).
// A prompt's cached prefix (ServingRequest::cached, §12.7) is not computed: its chunks cover the
// rest, each after the prefix and the chunks before it.
// Speculative decoding (ServingPoint::speculative_tokens k > 0, §12.8): a decode-only iteration
// is k draft steps and one verify step of k + 1 tokens per sequence, and gains each sequence
// tokens_per_verify tokens; the decodes beside a chunk gain one (they are not drafted for).
// Each iteration is timed by the host as what it is (never one "average" iteration: step time
// is convex in tokens, so the mean iteration's time underestimates the mean time).
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "chunk_cycle.hpp"
#include "tessera/sdk.hpp"

namespace tessera::plugins {

class AggregatedServing final : public ServingModel {
 public:
  explicit AggregatedServing(Mixing mixing) : mixing_(mixing) {}

  void evaluate(const EvalContext&, const ParallelConfig& c, const ServingRequest& r, const ServingPoint& p,
                StepTimer& timer, ServingMetrics& out) const override {
    const std::int64_t B = std::max<std::int64_t>(1, p.batch);
    const std::int64_t isl = r.input, osl = r.output;
    // A cached prefix is not computed: the chunks cover the rest of the prompt, after it.
    const std::int64_t cached = isl >= 1 ? std::clamp<std::int64_t>(r.cached, 0, isl - 1) : 0;
    const ChunkCycle k = chunk_cycle(mixing_, B, isl - cached, osl, p.token_budget);
    out.batch = B;
    out.max_batch = k.max_batch;
    out.chunk = p.token_budget > 0 ? k.chunk : 0;
    out.chunk_iterations = k.iterations;
    const double Bd = static_cast<double>(B), I = static_cast<double>(isl), O = static_cast<double>(osl);
    out.kv_tokens_peak = Bd * (I + O);
    out.kv_tokens_mean = Bd * (I + O / 2);
    // Continuous batching: the B sequences at evenly spread ages (the host's admission rule).
    out.kv_fits = isl >= 1 && osl >= 1 && timer.kv_admits(B, isl, osl, true);
    out.infeasible = k.infeasible;
    if (out.infeasible == nullptr && k.beside > 0 && c.cp > 1) out.infeasible = kMixedNeedsCp1;
    if (out.infeasible == nullptr) out.infeasible = speculative_refusal(c, p, B);
    if (out.infeasible != nullptr) return;  // nothing timed: the cycle does not exist

    // The decoding sequences' mean context: ISL + OSL / 2 (tokens).
    const double context = I + O / 2;
    // A decode-only iteration: pp > 1 keeps its pipeline full (pp micro-batches of B / pp);
    // the iterations carrying prefill are timed whole, the stages in series (conservative).
    const double t_decode = p.speculative_tokens > 0 ? speculative_iteration(timer, p, B, context)
                                                     : timer.decode_iteration(B, context);
    // Tokens a sequence gains per decode-only iteration.
    const double gain = speculative_gain(p, osl);
    // The prompts' chunk iterations, first come first served: chunk j after j * chunk cached.
    double t_prefill = 0, t_slowest_chunk = 0;
    for (std::int64_t j = 0; j < k.iterations; ++j) {
      const std::int64_t prefix = cached + j * k.chunk;
      const std::int64_t tokens = std::min(k.chunk, isl - prefix);
      const bool last = j + 1 == k.iterations;
      const double t = k.beside > 0 || k.prompts > 1
                           ? timer.mixed_step(k.beside, context, k.prompts, tokens, prefix, last)
                           : timer.prefill_chunk(tokens, prefix, last);
      t_prefill += t;
      t_slowest_chunk = std::max(t_slowest_chunk, t);
    }
    // Per cycle (k requests): k (OSL - 1) decode tokens and k from the last chunk. The chunk
    // iterations hold n_c (B - k) of them, the decode-only iterations (B x gain each) the rest.
    const double kd = static_cast<double>(k.prompts);
    const double decode_only = (kd * (O - 1) - static_cast<double>(k.iterations * k.beside)) / (Bd * gain);
    const double t_cycle = t_prefill + decode_only * t_decode;  // s per cycle of k requests
    out.ttft_s = t_prefill;
    if (osl > 1) {
      // The mean gap between two tokens of a sequence: of the B sequences' time over a cycle,
      // B t_cycle, the k new requests spend TTFT each before their first token; the rest
      // produces the cycle's k (OSL - 1) decode tokens: (B t_cycle - k TTFT) / (k (OSL - 1)),
      // in both mixings (alternating: the B - 1 others wait out each prompt).
      out.tpot_s = (Bd * t_cycle - kd * t_prefill) / (kd * (O - 1));
      if (mixing_ == Mixing::mixed) {
        out.tpot_tail_s = k.beside > 0 ? std::max(t_decode, t_slowest_chunk) : t_decode;
      } else {
        // The longest gap: one decode iteration plus the prompts prefilled before it, the
        // ceil((B - 1) / (OSL - 1)) that complete per decode iteration (at least one when B > 1).
        // With speculation a sequence's decode takes (OSL - 1) / gain iterations.
        const double stalls = std::ceil(static_cast<double>(B - 1) / std::max(1.0, (O - 1) / gain));
        out.tpot_tail_s = t_decode + stalls * t_prefill;
      }
      // The tail is the slowest iteration, the mean a weighted mean of them: equal up to rounding
      // when every iteration takes as long (the host refuses a tail below the mean).
      out.tpot_tail_s = std::max(out.tpot_tail_s, out.tpot_s);
    }
    out.e2e_s = out.ttft_s + (O - 1) * out.tpot_s;
    out.tokens_per_s = t_cycle > 0 ? kd * O / t_cycle : 0;
    out.requests_per_s = t_cycle > 0 ? kd / t_cycle : 0;
    out.prefill_time_share = t_cycle > 0 ? t_prefill / t_cycle : 0;
  }

 private:
  Mixing mixing_;
};

}  // namespace tessera::plugins
