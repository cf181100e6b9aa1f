#pragma once
#include <cstdint>

namespace tessera {

// decode and prefill time one step (`tessera run`); serve composes steps into requests
// (`tessera serve`, a `serving` plugin). A latency or memory plugin is always handed a
// decode or prefill workload: during a serving study the host hands it the step's own.
enum class Mode : std::uint8_t { decode, prefill, serve };
enum class Scope : std::uint8_t {
  full,       // attention + FFN/MoE + lm_head + pipeline hops
  attention,  // attention stages only (the seed's include_ffn = False)
};

// What one request does (docs/specification.md §2.4 "Workload").
struct Workload {
  Mode mode = Mode::decode;
  std::int64_t context = 0;  // S: KV length cached (decode) or prompt length (prefill); serve: ISL
  std::int64_t batch = 1;    // B: sequences per DP replica (serve: swept, sweep.serving.batch)
  std::int64_t chunk = 0;    // c: prefill chunk; 0 = the whole prompt
  Scope scope = Scope::full;
  std::int64_t input = 0;   // serve: ISL, prompt tokens per request (0 otherwise)
  std::int64_t output = 0;  // serve: OSL, generated tokens per request, the first included

  std::int64_t chunk_tokens() const { return chunk > 0 ? chunk : context; }
  std::int64_t chunk_count() const {
    const std::int64_t c = chunk_tokens();
    return c > 0 ? (context + c - 1) / c : 0;
  }
};

}  // namespace tessera
