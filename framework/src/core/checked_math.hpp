#pragma once
// Overflow-safe integer arithmetic for input-driven products (total PEs, parameter counts,
// grid sizes). Every product of input integers goes through these, so that a value that
// would wrap is reported instead of printed as "-1261475310744950487 gpus".
//
// Two ceilings: int64 (the integers themselves) and 2^53, the largest integer a double
// holds exactly, for counts that the physics carries as doubles (parameters, tokens).
#include <cstdint>
#include <initializer_list>
#include <optional>

namespace tessera {

// 2^53: every integer up to it is exact in a double's 53-bit mantissa.
inline constexpr std::int64_t kExactDoubleMax = std::int64_t{1} << 53;

// a * b, or nullopt when the product does not fit an int64.
inline std::optional<std::int64_t> checked_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// a + b, or nullopt when the sum does not fit an int64.
inline std::optional<std::int64_t> checked_add(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// The product of `values`, or nullopt when any partial product leaves int64 or exceeds
// `ceiling` (non-negative factors assumed; a zero factor gives 0).
inline std::optional<std::int64_t> checked_product(std::initializer_list<std::int64_t> values,
                                                   std::int64_t ceiling = INT64_MAX) {
  std::int64_t p = 1;
  for (const std::int64_t v : values) {
    const auto r = checked_mul(p, v);
    if (!r || *r > ceiling) return std::nullopt;
    p = *r;
  }
  return p;
}

// The same for unsigned sizes (grid points = the product of list sizes): nullopt past
// `ceiling` or past uint64.
inline std::optional<std::uint64_t> checked_size_product(std::initializer_list<std::uint64_t> values,
                                                         std::uint64_t ceiling = UINT64_MAX) {
  std::uint64_t p = 1;
  for (const std::uint64_t v : values) {
    std::uint64_t r = 0;
    if (__builtin_mul_overflow(p, v, &r) || r > ceiling) return std::nullopt;
    p = r;
  }
  return p;
}

// a * b saturated at UINT64_MAX (sizes: grid points, evaluations), so a 1000^4 grid is sized
// and refused, never wrapped.
inline std::uint64_t saturating_size_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return UINT64_MAX;
  return r;
}

// a * b saturated at INT64_MAX (for non-negative factors): a bound check that compares the
// result with a limit then sees "too large" rather than a wrapped value.
inline std::int64_t saturating_mul(std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return INT64_MAX;
  return r;
}

}  // namespace tessera
