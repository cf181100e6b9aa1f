#pragma once
// Checks of what plugin code returns (docs/plugin-guide.md §9 "What the host checks"): every
// time, count and byte count of a latency model's stages and of a memory model's usage must be
// finite and non-negative, an objective's value finite. The inline checks are the hot path: a
// few integer operations per value, no branch per value, no allocation. When one fails, the
// out-of-line describe_* function finds the offending value and says what it is ("" when the
// quick check was only wary: a -0.0 is allowed).
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "tessera/export.hpp"
#include "tessera/physics/step_result.hpp"
#include "tessera/serving_metrics.hpp"
#include "tessera/stage.hpp"

namespace tessera {

namespace returned_detail {
// mark(v) has its top bit set exactly when v is negative (-0.0 included), infinite or NaN: the
// bits of a finite non-negative double are below 0x7ff0...0, and adding 0x0010...0 carries
// those of +inf and NaN into the top bit, while negative values have it set already. OR-ing the
// marks of many values and testing one bit checks them all: an add and two ORs per value, no
// compare, no branch.
inline constexpr std::uint64_t kExponentOne = 0x0010000000000000ull;
inline std::uint64_t mark(double v) {
  const auto u = std::bit_cast<std::uint64_t>(v);
  return u | (u + kExponentOne);
}
inline bool clean(std::uint64_t marks) { return (marks >> 63) == 0; }
}  // namespace returned_detail

// True when every stage of `out` surely holds finite, non-negative times, counts and bytes and
// a name, and the list's size is within its capacity. False means "look closer". The eight
// doubles from `count` to `visible_s` are adjacent in a Stage: they are marked two at a time
// (GCC/clang vector extensions: SSE2 on x86-64), about 1.5 ns per stage.
inline bool stages_plausible(const StageList& out) {
  using returned_detail::mark;
  using Pair = std::uint64_t __attribute__((vector_size(16)));
  static_assert(offsetof(Stage, visible_s) - offsetof(Stage, count) == 7 * sizeof(double),
                "Stage's count .. visible_s must be eight adjacent doubles");
  if (out.size < 0 || out.size > StageList::kCapacity) return false;
  const Pair one = {returned_detail::kExponentOne, returned_detail::kExponentOne};
  Pair m0{}, m1{}, m2{}, m3{};
  std::uint64_t marks = 0;
  bool unnamed = false;
  for (int i = 0; i < out.size; ++i) {
    const Stage& s = out.items[static_cast<std::size_t>(i)];
    const auto* p = reinterpret_cast<const unsigned char*>(&s.count);
    Pair x0, x1, x2, x3;
    std::memcpy(&x0, p, sizeof x0);
    std::memcpy(&x1, p + 16, sizeof x1);
    std::memcpy(&x2, p + 32, sizeof x2);
    std::memcpy(&x3, p + 48, sizeof x3);
    m0 |= x0 | (x0 + one);
    m1 |= x1 | (x1 + one);
    m2 |= x2 | (x2 + one);
    m3 |= x3 | (x3 + one);
    marks |= mark(s.comm_extra_latency) | mark(s.memory_tier_bw);
    unnamed |= s.name == nullptr || s.memory_tier == nullptr;
  }
  const Pair m = m0 | m1 | m2 | m3;
  return !unnamed && returned_detail::clean(marks | m[0] | m[1]);
}

// The same for a memory model's usage: weights, KV, transient, used and budget bytes.
inline bool memory_plausible(const MemoryUsage& m) {
  using returned_detail::mark;
  return returned_detail::clean(mark(m.weights_bytes) | mark(m.kv_bytes) | mark(m.transient_bytes) |
                                mark(m.used_bytes) | mark(m.budget_bytes));
}

// The same for a serving model's metrics: every time and rate finite and >= 0, the batch,
// chunk and counts >= 0, and tpot_tail_s >= tpot_s when the point is feasible.
inline bool serving_plausible(const ServingMetrics& m) {
  using returned_detail::mark;
  const std::uint64_t marks = mark(m.ttft_s) | mark(m.tpot_s) | mark(m.tpot_tail_s) | mark(m.e2e_s) |
                              mark(m.tokens_per_s) | mark(m.requests_per_s) | mark(m.prefill_time_share) |
                              mark(m.kv_tokens_peak) | mark(m.kv_tokens_mean);
  return returned_detail::clean(marks) && m.batch >= 0 && m.max_batch >= 0 && m.chunk >= 0 &&
         m.chunk_iterations >= 0 && (m.infeasible != nullptr || m.tpot_tail_s >= m.tpot_s);
}

// What is wrong with `out`, as the end of "time_step returned ...": "stage 3 ('ffn.up') with
// visible_s = nan; ..." or "" when nothing is.
TESSERA_API std::string describe_bad_stages(const StageList& out);
// What is wrong with serving metrics `m`, as the end of "evaluate returned ...", or "".
TESSERA_API std::string describe_bad_serving(const ServingMetrics& m);
// What is wrong with `m`, as the end of "evaluate returned ...", or "".
TESSERA_API std::string describe_bad_memory(const MemoryUsage& m);
// Whether an objective's non-finite value is the plugin's fault: true when every quantity it
// was handed (the step's totals and the memory use) is finite. Otherwise the host's own
// physics went non-finite first and the configuration is infeasible (docs/limits.md).
TESSERA_API bool objective_inputs_finite(const StepTotals& totals, const MemoryUsage& memory);
// "nan", "-inf", "-1.5", "3e+300": a value as the messages print it.
TESSERA_API std::string format_returned(double v);

}  // namespace tessera
