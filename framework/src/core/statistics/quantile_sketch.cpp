#include "core/statistics/quantile_sketch.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tessera {

QuantileSketch::QuantileSketch(double accuracy)
    : gamma_((1 + accuracy) / (1 - accuracy)), log_gamma_(std::log((1 + accuracy) / (1 - accuracy))) {
  if (!(accuracy > 0 && accuracy < 1)) throw std::invalid_argument("sketch accuracy outside (0, 1)");
}

int QuantileSketch::index_of(double x) const { return static_cast<int>(std::ceil(std::log(x) / log_gamma_)); }

double QuantileSketch::value_of(int index) const { return 2 * std::pow(gamma_, index) / (gamma_ + 1); }

std::uint64_t& QuantileSketch::bucket(int i) {
  if (counts_.empty()) {
    offset_ = i;
    counts_.assign(1, 0);
  } else if (i < offset_) {
    counts_.insert(counts_.begin(), static_cast<std::size_t>(offset_ - i), 0);
    offset_ = i;
  } else if (i >= offset_ + static_cast<int>(counts_.size())) {
    counts_.resize(static_cast<std::size_t>(i - offset_ + 1), 0);
  }
  return counts_[static_cast<std::size_t>(i - offset_)];
}

void QuantileSketch::add(double x, std::uint64_t count) {
  if (!(x >= 0) || !std::isfinite(x)) throw std::invalid_argument("sketch value negative or not finite");
  if (count_ == 0) {
    min_ = max_ = x;
  } else {
    min_ = std::min(min_, x);
    max_ = std::max(max_, x);
  }
  count_ += count;
  sum_ += x * static_cast<double>(count);
  if (x <= kSketchFloor) {
    zeros_ += count;
    return;
  }
  // Values repeat (every sequence of an iteration waits the same gap): the last one's bucket
  // is remembered rather than its logarithm taken again.
  if (x != last_value_) {
    last_value_ = x;
    last_index_ = index_of(x);
  }
  const int i = last_index_;
  bucket(i) += count;
}

void QuantileSketch::merge(const QuantileSketch& other) {
  if (other.gamma_ != gamma_) throw std::invalid_argument("merging sketches of different accuracy");
  if (other.count_ == 0) return;
  if (count_ == 0) {
    *this = other;
    return;
  }
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
  zeros_ += other.zeros_;
  for (std::size_t j = 0; j < other.counts_.size(); ++j) {
    if (other.counts_[j] == 0) continue;
    bucket(other.offset_ + static_cast<int>(j)) += other.counts_[j];
  }
}

double QuantileSketch::value_at_rank(std::uint64_t rank) const {
  if (rank < zeros_) return 0;
  std::uint64_t seen = zeros_;
  for (std::size_t j = 0; j < counts_.size(); ++j) {
    seen += counts_[j];
    if (rank < seen) {
      // Clamped to the exact extremes, which only tightens the bound.
      return std::clamp(value_of(offset_ + static_cast<int>(j)), min_, max_);
    }
  }
  return max_;
}

double QuantileSketch::percentile(double q) const {
  if (!(q >= 0 && q <= 100)) throw std::invalid_argument("percentile outside [0, 100]");
  if (count_ == 0) return std::numeric_limits<double>::quiet_NaN();
  const double r = q / 100.0 * static_cast<double>(count_ - 1);
  const auto lo = static_cast<std::uint64_t>(std::floor(r));
  const double x0 = value_at_rank(lo);
  if (lo + 1 >= count_) return x0;
  const double f = r - static_cast<double>(lo);
  if (f == 0) return x0;
  return x0 + f * (value_at_rank(lo + 1) - x0);
}

}  // namespace tessera
