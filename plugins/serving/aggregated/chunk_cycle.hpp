#pragma once
// The chunk cycle of serving/aggregated (docs/physics.md §12.2): how many iterations of one
// completed request carry a prefill chunk, how many decode tokens sit beside each chunk, and
// the largest batch the token budget sustains. Pure counting: no step is timed here.
#include <algorithm>
#include <cstdint>

namespace tessera::plugins {

// How a replica schedules prefill against decode.
enum class Mixing : std::uint8_t {
  mixed,        // a chunk rides beside the decode tokens (vLLM, TensorRT-LLM chunked prefill)
  alternating,  // prefill-only iterations of the budget's tokens stall decode (SGLang's default)
};

// The counts of one cycle at B sequences in flight (the prefilling ones among them): `prompts`
// requests start and complete per cycle — one whose prompt is chunked, or k whole short prompts
// packed into one iteration.
struct ChunkCycle {
  std::int64_t chunk = 0;       // prefill tokens per prompt per chunk iteration (the last may be shorter)
  std::int64_t iterations = 0;  // n_c: iterations carrying the cycle's prompts
  std::int64_t prompts = 1;     // k: prompts prefilled together in each of them
  std::int64_t beside = 0;      // decode tokens beside each chunk: B - k (mixed), 0 (alternating)
  std::int64_t max_batch = 0;   // largest sustainable B at this budget (0: no bound)
  const char* infeasible = nullptr;
};

inline constexpr char kPrefillBound[] =
    "prefill-bound: the token budget cannot absorb the prompts of the B / OSL requests that finish per "
    "iteration beside the decode tokens (max_batch is the largest sustainable batch)";
inline constexpr char kNoPrefillRoom[] =
    "prefill-bound: no prefill token fits the token budget beside the B - 1 decode tokens (max_batch is the "
    "largest sustainable batch)";
inline constexpr char kBatchOverBudget[] =
    "the B decode tokens of one iteration exceed the token budget (max_batch is the largest that fits)";
inline constexpr char kMixedNeedsCp1[] =
    "mixed iterations are timed at cp = 1 only: use cp = 1, or mixing: alternating for cp > 1";
inline constexpr char kEmptyRequest[] = "a request needs input >= 1 and output >= 1 tokens";

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Mixed, packed: the prompts per iteration k = ceil(B / OSL) (B / OSL requests finish per
// iteration in steady state), when k whole prompts fit beside the B - k decode tokens.
inline std::int64_t packed_prompts(std::int64_t batch, std::int64_t osl) { return ceil_div(batch, osl); }
inline bool packed_fits(std::int64_t batch, std::int64_t isl, std::int64_t osl, std::int64_t budget) {
  const std::int64_t k = packed_prompts(batch, osl);
  return budget <= 0 || k * isl + (batch - k) <= budget;  // k <= B since OSL >= 1
}

// Mixed: a request of `isl` prompt and `osl` output tokens is sustained at B in flight with a
// budget of `budget` tokens when either (a) its whole prompt fits beside the B - 1 decode
// tokens (c = budget - (B - 1) >= ISL) and the k = ceil(B / OSL) prompts of a cycle fit one
// iteration together beside B - k decode tokens — the rule B ISL / OSL <= budget - B
// up to rounding —, or (b) its prompt is chunked (c < ISL) and its n_c chunk iterations, each
// holding B - 1 decode tokens, leave the decode tokens of the cycle for the other iterations:
// n_c (B - 1) <= OSL - 1.
inline bool mixed_sustainable(std::int64_t batch, std::int64_t isl, std::int64_t osl, std::int64_t budget) {
  const std::int64_t c = budget > 0 ? budget - (batch - 1) : isl;
  if (c < 1) return false;
  if (c >= isl) return packed_fits(batch, isl, osl, budget);
  return ceil_div(isl, c) * (batch - 1) <= osl - 1;
}

// The largest B with mixed_sustainable (true at B = 1; monotone in B): a bisection, budget > 0.
// Without a budget (0) every prompt is one chunk and any number of them pack: no bound (0).
inline std::int64_t mixed_max_batch(std::int64_t isl, std::int64_t osl, std::int64_t budget) {
  if (budget <= 0) return 0;
  std::int64_t lo = 1, hi = budget;  // lo sustainable; above budget c < 1
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (mixed_sustainable(mid, isl, osl, budget))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

inline ChunkCycle chunk_cycle(Mixing mixing, std::int64_t batch, std::int64_t isl, std::int64_t osl,
                              std::int64_t budget) {
  ChunkCycle k;
  if (isl < 1 || osl < 1) {
    k.infeasible = kEmptyRequest;
    return k;
  }
  if (mixing == Mixing::mixed) {
    k.beside = batch - 1;
    k.max_batch = mixed_max_batch(isl, osl, budget);
    const std::int64_t c = budget > 0 ? budget - (batch - 1) : isl;
    if (c < 1) {
      k.infeasible = kNoPrefillRoom;
      return k;
    }
    if (c >= isl) {  // whole prompts, k of them per cycle in one iteration
      k.chunk = isl;
      k.iterations = 1;
      k.prompts = packed_prompts(batch, osl);
      k.beside = batch - k.prompts;
      if (!packed_fits(batch, isl, osl, budget)) k.infeasible = kPrefillBound;
      return k;
    }
    k.chunk = c;
    k.iterations = ceil_div(isl, k.chunk);
    if (k.iterations * (batch - 1) > osl - 1) k.infeasible = kPrefillBound;
    return k;
  }
  k.beside = 0;
  k.max_batch = budget > 0 ? budget : 0;
  k.chunk = budget > 0 ? std::min(budget, isl) : isl;
  k.iterations = ceil_div(isl, k.chunk);
  if (budget > 0 && batch > budget) k.infeasible = kBatchOverBudget;
  return k;
}

}  // namespace tessera::plugins
