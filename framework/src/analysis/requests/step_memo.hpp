#pragma once
// The time of one engine iteration, from the host's StepTimer, remembered by shape
// (docs/physics.md §12.5 "Step times"). An iteration is D decode tokens at a mean context beside
// P prefill chunks; the shape's sizes are snapped to a grid with 256 steps per factor of two
// (exact below 256), so that a long simulation meets a few thousand shapes and an iteration costs
// a table lookup once they are known. Snapping moves a size by at most 0.2 %, a time by less
// (tests/requests: memoized against exact timing).
#include <cstdint>
#include <unordered_map>

#include "tessera/export.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera::requests {

struct IterationShape {
  std::int64_t decodes = 0;       // sequences decoding one token each
  double decode_context = 0;      // their mean cached tokens
  std::int64_t prompts = 0;       // prefill chunks
  std::int64_t chunk_tokens = 0;  // their mean new tokens
  std::int64_t chunk_prefix = 0;  // their mean cached tokens before the chunk
  bool last = false;              // a chunk ends its prompt (its first token is sampled)
};

// x snapped to the grid (x >= 0): exact below 256, else to a multiple of 2^(⌊log2 x⌋ − 8).
TESSERA_API std::int64_t snap(std::int64_t x);

class TESSERA_API StepMemo {
 public:
  // memoize = false: every iteration asks the timer with the exact shape (the reference the
  // memoized times are tested against).
  explicit StepMemo(StepTimer& timer, bool memoize = true) : timer_(timer), memoize_(memoize) {}

  // Seconds for the iteration; decodes + prompts >= 1.
  double time(const IterationShape& s);
  // The same, timed exactly and not remembered: a what-if (prefix caching's load-or-compute
  // decision) leaves the memo, and so every later iteration's time, as it was.
  double exact(const IterationShape& s) {
    return timed(s.decodes, s.decode_context, s.prompts, s.chunk_tokens, s.chunk_prefix, s.last);
  }
  std::size_t shapes() const { return memo_.size(); }  // distinct shapes timed

 private:
  struct Key {
    std::int64_t decodes, context, prompts, tokens, prefix;
    bool last;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  double timed(std::int64_t decodes, double context, std::int64_t prompts, std::int64_t tokens,
               std::int64_t prefix, bool last);

  StepTimer& timer_;
  bool memoize_;
  std::unordered_map<Key, double, KeyHash> memo_;
};

}  // namespace tessera::requests
