#pragma once
// Exact non-dominated sets (Pareto frontiers). A point dominates another when it is no worse
// in every objective and strictly better in at least one; identical points do not dominate
// each other, so duplicates on the frontier are all kept.
//
// Time: 2 objectives O(N log N) (sort + sweep); 3 objectives O(N log N) (sort by the first,
// sweep with an ordered staircase over the other two, Kung-Luccio-Preparata); 4 and more
// O(N log N + N·F) (sort-filter-skyline: lexicographic order, each point checked against the
// frontier found so far; F = frontier size).
#include <cstddef>
#include <span>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/kinds/objective.hpp"

namespace tessera {

// Lower is better: maximised objectives negated.
inline double oriented(double v, Direction d) { return d == Direction::maximize ? -v : v; }

// `values` holds n points × k objectives, row-major (point i's objective j at i*k + j).
// `directions` has k entries. `feasible` is empty (all points) or has n entries: infeasible
// points are neither on the frontier nor dominate anything. Returns the indices of the
// non-dominated points in ascending order. NaN values make a point ineligible.
TESSERA_API std::vector<std::size_t> pareto_front(std::span<const double> values, std::size_t k,
                                                  std::span<const Direction> directions,
                                                  std::span<const bool> feasible = {});

// The O(N²·k) reference (tests only).
TESSERA_API std::vector<std::size_t> pareto_front_bruteforce(std::span<const double> values, std::size_t k,
                                                             std::span<const Direction> directions,
                                                             std::span<const bool> feasible = {});

}  // namespace tessera
