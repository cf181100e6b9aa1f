#pragma once
// Checks of what plugin code returns (docs/plugin-guide.md §9 "What the host checks"): every
// time, count and byte count of a latency model's stages and of a memory model's usage must be
// finite and non-negative, an objective's value finite. The inline checks are the hot path: a
// few integer operations per value, no branch per value, no allocation. When one fails, the
// out-of-line describe_* function finds the offending value and says what it is ("" when the
// quick check was only wary: a -0.0 is allowed).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>

#include "tessera/export.hpp"
#include "tessera/physics/step_result.hpp"
#include "tessera/stage.hpp"

namespace tessera {

namespace returned_detail {
inline constexpr std::uint64_t kSign = std::uint64_t{1} << 63;
inline constexpr std::uint64_t kInfinity = 0x7ff0000000000000ull;  // |bits| >= this: inf or NaN

// Folds `v` into the running marks: `sign` collects sign bits, `magnitude` the largest |bits|.
inline void fold(double v, std::uint64_t& sign, std::uint64_t& magnitude) {
  const auto u = std::bit_cast<std::uint64_t>(v);
  sign |= u;
  magnitude = std::max(magnitude, u & ~kSign);
}
inline bool clean(std::uint64_t sign, std::uint64_t magnitude) {
  return (sign & kSign) == 0 && magnitude < kInfinity;
}
}  // namespace returned_detail

// True when every stage of `out` surely holds finite, non-negative times, counts and bytes and
// a name, and the list's size is within its capacity. False means "look closer".
inline bool stages_plausible(const StageList& out) {
  if (out.size < 0 || out.size > StageList::kCapacity) return false;
  std::uint64_t sign = 0, magnitude = 0;
  bool unnamed = false;
  for (int i = 0; i < out.size; ++i) {
    const Stage& s = out.items[static_cast<std::size_t>(i)];
    for (const double v : {s.count, s.flops, s.hbm_bytes, s.comm_bytes, s.compute_s, s.memory_s, s.comm_s,
                           s.visible_s, s.comm_extra_latency})
      returned_detail::fold(v, sign, magnitude);
    unnamed |= s.name == nullptr;
  }
  return !unnamed && returned_detail::clean(sign, magnitude);
}

// The same for a memory model's usage: weights, KV, transient, used and budget bytes.
inline bool memory_plausible(const MemoryUsage& m) {
  std::uint64_t sign = 0, magnitude = 0;
  for (const double v : {m.weights_bytes, m.kv_bytes, m.transient_bytes, m.used_bytes, m.budget_bytes})
    returned_detail::fold(v, sign, magnitude);
  return returned_detail::clean(sign, magnitude);
}

// What is wrong with `out`, as the end of "time_step returned ...": "stage 3 ('ffn.up') with
// visible_s = nan; ..." or "" when nothing is.
TESSERA_API std::string describe_bad_stages(const StageList& out);
// What is wrong with `m`, as the end of "evaluate returned ...", or "".
TESSERA_API std::string describe_bad_memory(const MemoryUsage& m);
// Whether an objective's non-finite value is the plugin's fault: true when every quantity it
// was handed (the step's totals and the memory use) is finite. Otherwise the host's own
// physics went non-finite first and the configuration is infeasible (docs/limits.md).
TESSERA_API bool objective_inputs_finite(const StepTotals& totals, const MemoryUsage& memory);
// "nan", "-inf", "-1.5", "3e+300": a value as the messages print it.
TESSERA_API std::string format_returned(double v);

}  // namespace tessera
