#pragma once
// Percentiles as serving benchmarks report them, and their confidence intervals by batch means
// (docs/physics.md §12.5).
//
// A percentile is numpy's default ("linear") estimate, the one vLLM's benchmark_serving.py and
// SGLang's bench_serving.py print through np.percentile: of n sorted values x_0 <= ... <= x_{n-1},
// the q-th percentile sits at rank r = q/100 · (n − 1), x_⌊r⌋ + (r − ⌊r⌋)(x_⌊r⌋+1 − x_⌊r⌋).
//
// Batch means (Law & Kelton, "Simulation Modeling and Analysis", §9.5.3): the measured series, in
// its order, is cut into k batches of equal size; the statistic is computed in each batch; the
// half-width of its confidence interval is t_{k−1, 1−a/2} · s_k / √k, s_k the standard deviation
// of the k batch statistics. Batches long against the series' correlation make them nearly
// independent; k = 20 batches (kBatches) of at least kMinBatchSize values each.
#include <cstddef>
#include <span>
#include "tessera/export.hpp"

namespace tessera {

// Batches of the batch-means interval, and the fewest values a batch holds (fewer values in all:
// fewer batches; under two batches, no interval).
inline constexpr std::size_t kBatches = 20;
inline constexpr std::size_t kMinBatchSize = 10;

// The quantile at `fraction` (clamped to [0, 1]) of `sorted` (ascending, not empty), linear
// interpolation ("R-7", Hyndman & Fan 1996): the one rule for calibration's error percentiles
// (analysis/calibration/percentiles.hpp) and the request simulator's.
TESSERA_API double quantile_of_sorted(std::span<const double> sorted, double fraction);
// The q-th percentile (0 <= q <= 100) of `sorted` (ascending, not empty), linear interpolation.
TESSERA_API double percentile_of_sorted(std::span<const double> sorted, double q);

// Batches for n values: min(kBatches, n / kMinBatchSize); 0 when under 2.
TESSERA_API std::size_t batch_count(std::size_t n);
// The batch (0-based) of value i of n cut into `batches` batches of (nearly) equal size.
inline std::size_t batch_of(std::size_t i, std::size_t n, std::size_t batches) {
  return batches == 0 ? 0 : i * batches / n;
}

// Student's t quantile t_{df, p} for p = 0.975 (95 % two-sided) or 0.995 (99 % two-sided);
// df >= 1 (tabulated to df 30, the normal quantile's Cornish-Fisher expansion beyond).
TESSERA_API double student_t(std::size_t df, double p);

// The confidence-interval half-width of a statistic from its values in k >= 2 batches, at
// `confidence` 0.95 or 0.99: t_{k−1} · s / √k. NaN when fewer than two batches.
TESSERA_API double batch_means_half_width(std::span<const double> batch_values, double confidence = 0.95);

}  // namespace tessera
