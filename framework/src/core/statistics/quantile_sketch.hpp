#pragma once
// A quantile sketch with a relative-error guarantee (DDSketch: Masson, Rim & Lee, "DDSketch: a
// fast and fully-mergeable quantile sketch with relative-error guarantees", VLDB 2019), for the
// percentiles of long simulations in memory that does not grow with the number of values.
//
// A positive value x falls in bucket i = ⌈log_γ x⌉, γ = (1 + α)/(1 − α), which covers
// (γ^(i−1), γ^i]; the bucket answers 2γ^i/(γ + 1), within a factor (1 ± α) of every value it
// holds. A percentile is interpolated between the two order statistics around its rank as
// core/statistics/quantiles.hpp's exact percentile is, each read from its bucket, so it is within α
// (relative) of the exact figure: kSketchAccuracy = 0.5 %. Values at or below kSketchFloor (a
// picosecond, when the values are seconds) count as zero. The buckets span the range of the
// values seen (about 230 per factor of 10), grown when a value falls outside it.
#include <cstddef>
#include <cstdint>
#include <vector>
#include "tessera/export.hpp"

namespace tessera {

inline constexpr double kSketchAccuracy = 0.005;
inline constexpr double kSketchFloor = 1e-12;

class TESSERA_API QuantileSketch {
 public:
  explicit QuantileSketch(double accuracy = kSketchAccuracy);

  void add(double x, std::uint64_t count = 1);  // `count` values x >= 0, finite
  void merge(const QuantileSketch& other);      // the same accuracy

  std::uint64_t count() const { return count_; }
  // The q-th percentile (0 <= q <= 100), linear between ranks as percentile_of_sorted; NaN when empty.
  double percentile(double q) const;
  // The exact mean, minimum and maximum of the values added.
  double mean() const { return count_ == 0 ? 0 : sum_ / static_cast<double>(count_); }
  double min() const { return min_; }
  double max() const { return max_; }
  std::size_t buckets() const { return counts_.size(); }

 private:
  int index_of(double x) const;
  std::uint64_t& bucket(int index);  // the count of bucket `index`, the range grown to hold it
  double value_of(int index) const;
  double value_at_rank(std::uint64_t rank) const;  // the rank-th smallest value (0-based), estimated

  double gamma_, log_gamma_;
  std::uint64_t zeros_ = 0;
  int offset_ = 0;                     // index of counts_[0]
  std::vector<std::uint64_t> counts_;  // dense, index offset_ ... offset_ + size − 1
  std::uint64_t count_ = 0;
  double sum_ = 0, min_ = 0, max_ = 0;
  double last_value_ = -1;  // the last positive value added, and its bucket
  int last_index_ = 0;
};

}  // namespace tessera
