#include "analysis/requests/metric_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/quantiles.hpp"

namespace tessera::requests {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

MetricStats::MetricStats(std::uint64_t measured, bool exact)
    : measured_(measured), batches_(batch_count(static_cast<std::size_t>(measured))), exact_(exact) {
  const std::size_t slots = std::max<std::size_t>(batches_, 1);
  if (exact_)
    exact_values_.resize(slots);
  else
    sketches_.resize(slots);
  sums_.assign(slots, 0);
  counts_.assign(slots, 0);
}

void MetricStats::add(std::uint64_t order, double value, std::uint64_t count) {
  const std::size_t b = batches_ == 0 ? 0
                                      : batch_of(static_cast<std::size_t>(order),
                                                 static_cast<std::size_t>(measured_), batches_);
  if (exact_)
    exact_values_[b].insert(exact_values_[b].end(), static_cast<std::size_t>(count), value);
  else
    sketches_[b].add(value, count);
  sums_[b] += value * static_cast<double>(count);
  counts_[b] += count;
}

std::vector<double> MetricStats::values() const {
  std::vector<double> all;
  for (const auto& v : exact_values_) all.insert(all.end(), v.begin(), v.end());
  return all;
}

std::size_t MetricStats::kept() const {
  std::size_t n = 0;
  for (const auto& v : exact_values_) n += v.size();
  return n;
}

MetricSummary MetricStats::summary() const {
  MetricSummary s;
  const std::size_t slots = counts_.size();
  double sum = 0;
  for (std::size_t b = 0; b < slots; ++b) {
    s.count += counts_[b];
    sum += sums_[b];
  }
  if (s.count == 0) {
    s.mean = s.mean_half_width = s.max = kNaN;
    s.percentile.fill(kNaN);
    s.half_width.fill(kNaN);
    s.cdf.fill(kNaN);
    return s;
  }
  s.mean = sum / static_cast<double>(s.count);
  // Every batch holds values when the interval is computed; a batch without any (a metric some
  // requests lack, as TPOT of one-token outputs) leaves the interval undefined.
  const bool intervals =
      batches_ >= 2 && std::all_of(counts_.begin(), counts_.end(), [](auto c) { return c > 0; });
  std::vector<double> per_batch(slots);
  if (intervals) {
    for (std::size_t b = 0; b < slots; ++b) per_batch[b] = sums_[b] / static_cast<double>(counts_[b]);
    s.mean_half_width = batch_means_half_width(per_batch);
  } else {
    s.mean_half_width = kNaN;
  }
  if (exact_) {
    std::vector<double> all = values();
    std::sort(all.begin(), all.end());
    s.max = all.back();
    for (std::size_t i = 0; i < kCdfPoints; ++i)
      s.cdf[i] = percentile_of_sorted(all, static_cast<double>(i + 1));
    for (std::size_t p = 0; p < kPercentiles.size(); ++p) {
      s.percentile[p] = percentile_of_sorted(all, kPercentiles[p]);
      if (!intervals) {
        s.half_width[p] = kNaN;
        continue;
      }
      for (std::size_t b = 0; b < slots; ++b) {
        std::vector<double> batch = exact_values_[b];
        std::sort(batch.begin(), batch.end());
        per_batch[b] = percentile_of_sorted(batch, kPercentiles[p]);
      }
      s.half_width[p] = batch_means_half_width(per_batch);
    }
    return s;
  }
  QuantileSketch all;
  for (const QuantileSketch& b : sketches_) all.merge(b);
  s.max = all.max();
  for (std::size_t i = 0; i < kCdfPoints; ++i) s.cdf[i] = all.percentile(static_cast<double>(i + 1));
  for (std::size_t p = 0; p < kPercentiles.size(); ++p) {
    s.percentile[p] = all.percentile(kPercentiles[p]);
    if (!intervals) {
      s.half_width[p] = kNaN;
      continue;
    }
    for (std::size_t b = 0; b < slots; ++b) per_batch[b] = sketches_[b].percentile(kPercentiles[p]);
    s.half_width[p] = batch_means_half_width(per_batch);
  }
  return s;
}

}  // namespace tessera::requests
