#pragma once
// Kind `serving`: how step times compose into request-level metrics (TTFT, TPOT, tokens/s per
// replica) for a workload of requests of ISL prompt and OSL output tokens at B sequences in
// flight per replica and a token budget per iteration (docs/plugin-guide.md §10 "serving",
// docs/physics.md §12). The plugin asks the host's StepTimer for the steps it needs; the host
// times them with the scenario's latency model and checks memory with its memory model.
#include <algorithm>
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/plugin/plugin_object.hpp"
#include "tessera/serving_metrics.hpp"

namespace tessera {

// One request of the workload (workload.input, workload.output).
struct ServingRequest {
  std::int64_t input = 0;   // ISL: prompt tokens
  std::int64_t output = 0;  // OSL: generated tokens, the first (produced by the prefill) included
  // Of the prompt, the leading tokens found in the prefix cache (serving.prefix_cache.hit_ratio,
  // docs/physics.md §12.7): not computed, but attended to and held in KV; 0 <= cached < input.
  std::int64_t cached = 0;
};

// One point of the serving sweep for a configuration (sweep.serving).
struct ServingPoint {
  std::int64_t batch = 1;         // B: sequences in flight per replica (a replica = one dp group)
  std::int64_t token_budget = 0;  // tokens per iteration, decode and prefill together; 0 = no limit
  // Speculative decoding (serving.speculative, docs/physics.md §12.8): k draft tokens per sequence
  // per decode iteration (0: none), and the mean tokens a sequence gains per verify step, the
  // accepted drafts and the verifier's own (1 + sum_{i<=k} prod_{j<=i} a_j; 1 when k = 0).
  std::int64_t speculative_tokens = 0;
  double tokens_per_verify = 1;
};

// Step times of one configuration on one replica, from the host (its evaluator, latency and
// memory plugins). Seconds. Not thread-safe: the host hands each evaluating thread its own.
// Every call allocates nothing.
class TESSERA_API StepTimer {
 public:
  virtual ~StepTimer();
  // One decode iteration: `batch` sequences, one new token each, `context` tokens cached per
  // sequence (a mean: fractional allowed), every layer with the pipeline's stages in series
  // (the step `tessera run` times in decode: StepKind::decode_step).
  virtual double decode_step(std::int64_t batch, double context) = 0;
  // The steady-state time between two tokens of one sequence when the replica keeps its
  // pipeline full: `decode_step` when pp = 1 or batch < pp; otherwise pp micro-batches of
  // batch / pp sequences in flight, pp x one stage's time (with its hop) for a micro-batch —
  // the pipeline-full figure `tessera run` reports as its pipeline throughput (docs/physics.md §8).
  virtual double decode_iteration(std::int64_t batch, double context) = 0;
  // The prefill of `batch` prompts of `input` tokens in chunks of `chunk` tokens (0: whole),
  // to the first token, as `tessera run` times a prefill (pp > 1 pipelines the chunks).
  virtual double prefill(std::int64_t batch, std::int64_t input, std::int64_t chunk) = 0;
  // One chunk alone: `tokens` new tokens of one prompt after `prefix` cached ones, every layer;
  // `last` adds the lm_head (StepKind::prefill_chunk).
  virtual double prefill_chunk(std::int64_t tokens, std::int64_t prefix, bool last) = 0;
  // One mixed iteration (StepKind::mixed_step): `batch` decode tokens at mean context `context`
  // beside the prefill chunks of `prompts` prompts, each `tokens` tokens after `prefix` cached
  // ones (`last`: the prompts' last chunks, whose first output tokens are sampled too). The
  // GEMMs, collectives and MoE see batch + prompts x tokens tokens, attention each part at its
  // own context. batch = 0 times the chunks alone (prompts = 1: as prefill_chunk).
  virtual double mixed_step(std::int64_t batch, double context, std::int64_t prompts, std::int64_t tokens,
                            std::int64_t prefix, bool last) = 0;
  // Speculative decoding (ServingPoint::speculative_tokens > 0, docs/physics.md §12.8). A verify
  // iteration: `batch` sequences each scoring `tokens` (k + 1) new tokens over `context` cached, as
  // decode attention (the KV read once per sequence), the GEMMs at batch x tokens rows, every
  // position through the lm_head. A draft step: the scenario's drafter proposing one token per
  // sequence at the same batch and context (no scheduler step of its own).
  virtual double verify_step(std::int64_t batch, double context, std::int64_t tokens) = 0;
  virtual double draft_step(std::int64_t batch, double context) = 0;
  // Whether `batch` sequences of `context` tokens each fit in memory beside the weights (the
  // scenario's memory plugin, in decode).
  virtual bool kv_fits(std::int64_t batch, std::int64_t context) = 0;
  // Whether `batch` requests of `input` + `output` tokens can be admitted together: `staggered`
  // when they start at evenly spread times (continuous batching), else all at once (a static
  // batch). Under a framework's KV rule the host admits by blocks of the batch's worst moment
  // (docs/physics.md §10.1); the default, and the host without a framework, keep the
  // conservative rule: every sequence at its full ISL + OSL.
  virtual bool kv_admits(std::int64_t batch, std::int64_t input, std::int64_t output, bool staggered) {
    (void)staggered;
    return kv_fits(batch, input + output);
  }
};

// Speculative decoding for serving plugins (docs/physics.md §12.8): one rule for every plugin.
inline constexpr char kSpeculativeNeedsPp1[] =
    "speculative decoding with pipeline parallelism: no engine runs it (pp 1)";
inline constexpr char kVerifyOverBudget[] =
    "speculative decoding: a verify iteration's batch x (k + 1) tokens exceed the token budget";
// Why `point` cannot draft on `c` with `batch` sequences, or nullptr: no engine drafts with
// pipeline parallelism (SGLang asserts pp 1; vLLM's docs say the two do not compose), and a verify
// iteration schedules batch x (k + 1) tokens within the token budget.
inline const char* speculative_refusal(const ParallelConfig& c, const ServingPoint& point,
                                       std::int64_t batch) {
  if (point.speculative_tokens <= 0) return nullptr;
  if (c.pp > 1) return kSpeculativeNeedsPp1;
  if (point.token_budget > 0 && batch * (point.speculative_tokens + 1) > point.token_budget)
    return kVerifyOverBudget;
  return nullptr;
}
// A decode iteration that drafts (point.speculative_tokens k > 0): k draft steps and one verify
// step of k + 1 tokens per sequence, seconds.
inline double speculative_iteration(StepTimer& timer, const ServingPoint& point, std::int64_t batch,
                                    double context) {
  const std::int64_t k = point.speculative_tokens;
  return static_cast<double>(k) * timer.draft_step(batch, context) + timer.verify_step(batch, context, k + 1);
}
// The tokens a sequence gains per such iteration: tokens_per_verify, never more than the OSL - 1
// it has left to make after its first; 1 without speculation.
inline double speculative_gain(const ServingPoint& point, std::int64_t output) {
  if (point.speculative_tokens <= 0) return 1.0;
  return std::clamp(point.tokens_per_verify, 1.0, std::max(1.0, static_cast<double>(output) - 1));
}

class TESSERA_API ServingModel : public PluginObject {
 public:
  ~ServingModel() override;
  // The metrics of configuration `c` (ctx: the scenario's model and machine) for `request` (the
  // workload's ISL and OSL) at `point`, into `out` (reset by the host). Thread-safe (const), no
  // allocation; `timer` is the calling thread's.
  virtual void evaluate(const EvalContext& ctx, const ParallelConfig& c, const ServingRequest& request,
                        const ServingPoint& point, StepTimer& timer, ServingMetrics& out) const = 0;
};

}  // namespace tessera
