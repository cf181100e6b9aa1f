#pragma once
// The KV cache a serving engine allocates, and how it admits sequences into it (docs/physics.md
// §10.1 "KV capacity as engines allocate it", docs/frameworks.md "KV capacity"). Per PE of one
// configuration, from the memory plugin's weights, KV bytes per token and transient set:
//   vLLM     blocks = floor((u x M - W - A - N) / (b x block)), tokens = blocks x block
//   SGLang   tokens = floor((f x M - W - L) / b), in pages   (f auto: the 0.5 heuristic)
//   TRT-LLM  tokens = min(max_tokens, floor(f x (M - W - A) / (b x block)) x block)
// M the memory the engine sees, W the weights, A the profile's activation peak (vLLM: the larger
// of the transient at the profile's tokens T and the sampler's a x V x min(S, T), S its max
// sequences), N vLLM's non-torch increase, L SGLang's load overhead, b the KV bytes of one token on
// this PE.
#include <cstdint>
#include <string>

#include "eval/evaluator.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"
#include "tessera/export.hpp"

namespace tessera {

struct EngineKvCapacity {
  bool engine = false;            // a framework rule (false: rule none, nothing computed)
  std::int64_t tokens = 0;        // KV tokens the engine allocates per replica (its log line)
  std::int64_t block = 1;         // tokens per block/page
  double kv_bytes_per_token = 0;  // per PE
  double memory_bytes = 0;        // M
  double fraction = 0;            // the memory fraction applied (SGLang auto: the computed one)
  double weights_bytes = 0;       // W
  double activation_bytes = 0;    // A (vLLM, TensorRT-LLM)
  double other_bytes = 0;         // N (vLLM's non-torch increase) or L (SGLang's load overhead)
  std::int64_t profile_tokens = 0;
  std::int64_t sampled_sequences = 0;  // vLLM: min(max sequences, profile tokens)
};

// The capacity of configuration `c` (layout: its own) under `rule` with `profile_tokens` tokens in
// the profile pass (vLLM max_num_batched_tokens, SGLang chunked_prefill_size; 0: the prompt) and
// at most `max_seqs` sequences in flight (the engine's max_num_seqs: the point's batch; 0: the
// rule's max_num_seqs, else the profile tokens).
TESSERA_API EngineKvCapacity engine_kv_capacity(const Evaluator& ev, const EngineKv& rule,
                                                const ParallelConfig& c, const Layout& layout,
                                                std::int64_t profile_tokens, std::int64_t max_seqs);

// Tokens of the batch at its worst moment, in whole blocks: `staggered` (continuous batching,
// the B sequences at evenly spread ages): B ISL + ceil(OSL (B + 1) / 2) tokens plus one partly
// filled block per sequence; else (a static batch, all at once) B blocks of ISL + OSL each.
TESSERA_API std::int64_t engine_worst_tokens(std::int64_t batch, std::int64_t input, std::int64_t output,
                                             std::int64_t block, bool staggered);

// The largest batch (at most 2^30) engine_worst_tokens admits into `capacity` tokens (0: none).
TESSERA_API std::int64_t engine_max_batch(std::int64_t capacity, std::int64_t input, std::int64_t output,
                                          std::int64_t block, bool staggered);

// The largest batch B (at most 2^30) the engine admits when it runs at most B sequences: its
// worst moment within the capacity at max_seqs = B (vLLM's sampler term grows with B, so the pool
// shrinks as B grows); 0: none.
TESSERA_API std::int64_t engine_admitted_batch(const Evaluator& ev, const EngineKv& rule,
                                               const ParallelConfig& c, const Layout& layout,
                                               std::int64_t profile_tokens, std::int64_t input,
                                               std::int64_t output, bool staggered);

// "KV capacity 447,776 tokens (vLLM 0.12.0 rule: 0.90 x 79.19 GiB - weights 14.96 GiB - activation
// peak 1.10 GiB, blocks of 16)".
TESSERA_API std::string describe_engine_kv(const EngineKv& rule, const EngineKvCapacity& cap);

}  // namespace tessera
