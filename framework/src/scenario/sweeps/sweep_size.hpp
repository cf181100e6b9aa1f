#pragma once
// How many points a scenario's sweep holds, counted without enumerating it (docs/limits.md
// "Work"): products of the value lists, with overflow-safe multiplication that saturates at
// UINT64_MAX, so a 1000^4 grid is sized (and refused) instantly.
#include <cstdint>
#include <initializer_list>

#include "core/checked_math.hpp"  // saturating_size_mul
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

// Points of the parallelism grid (cp × tp × pp × dp × ep × the discrete knobs), before
// validity: what GridSpace::enumerated() will be. An empty list counts as its one default.
TESSERA_API std::uint64_t sweep_grid_points(const Sweep& sweep);

// Serving points per configuration (mode: serve): sweep.serving's batches × token budgets × (each
// draft length k > 0 × acceptance rates, k = 0 once) (each list absent: 1); 1
// in the other modes (their lists are empty).
TESSERA_API std::uint64_t sweep_serving_points(const Sweep& sweep);

// Points of the hardware grid (the product of sweep.hardware's value lists; 1 without axes).
TESSERA_API std::uint64_t sweep_hardware_points(const Sweep& sweep);

}  // namespace tessera
