#pragma once
// Kendall's rank correlation τ-b between two score vectors over the same items, ties allowed:
//   τ_b = (n_c − n_d) / sqrt((n0 − n1)(n0 − n2)),  n0 = n(n−1)/2,
// n1 = pairs tied in x, n2 = pairs tied in y. O(N log N): Knight's algorithm (sort by x then y,
// count ties, then count discordant pairs as the swaps of a merge sort on y).
#include <cstddef>
#include <cstdint>
#include <span>

#include "tessera/export.hpp"

namespace tessera {

struct KendallResult {
  double tau_b = 0;              // NaN when either vector is constant (undefined)
  std::uint64_t n = 0;           // items
  std::uint64_t concordant = 0;  // pairs ordered the same way by x and y
  std::uint64_t discordant = 0;  // pairs ordered oppositely
  std::uint64_t ties_x = 0;      // pairs tied in x (including those tied in both)
  std::uint64_t ties_y = 0;      // pairs tied in y (including those tied in both)
  std::uint64_t ties_xy = 0;     // pairs tied in both
};

// `x` and `y` have the same length. NaN values are not allowed (filter them first).
TESSERA_API KendallResult kendall_tau_b(std::span<const double> x, std::span<const double> y);

// The O(N²) definition (tests only).
TESSERA_API KendallResult kendall_tau_b_bruteforce(std::span<const double> x, std::span<const double> y);

}  // namespace tessera
