#pragma once
#include <cstdint>

namespace tessera {

enum class Mode : std::uint8_t { decode, prefill };
enum class Scope : std::uint8_t {
  full,       // attention + FFN/MoE + lm_head + pipeline hops
  attention,  // attention stages only (the seed's include_ffn = False)
};

// What one request does (docs/specification.md §2.4 "Workload").
struct Workload {
  Mode mode = Mode::decode;
  std::int64_t context = 0;  // S: KV length cached (decode) or prompt length (prefill)
  std::int64_t batch = 1;    // B: sequences per DP replica
  std::int64_t chunk = 0;    // c: prefill chunk; 0 = the whole prompt
  Scope scope = Scope::full;

  std::int64_t chunk_tokens() const { return chunk > 0 ? chunk : context; }
  std::int64_t chunk_count() const {
    const std::int64_t c = chunk_tokens();
    return c > 0 ? (context + c - 1) / c : 0;
  }
};

}  // namespace tessera
