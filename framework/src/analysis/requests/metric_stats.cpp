#include "analysis/requests/metric_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/statistics/quantiles.hpp"

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

bool MetricStats::intervals() const {
  // A batch without any value (a metric some requests lack, as TPOT of one-token outputs)
  // leaves the interval undefined.
  return batches_ >= 2 && std::all_of(counts_.begin(), counts_.end(), [](auto c) { return c > 0; });
}

double MetricStats::percentile_of_batch(std::size_t b, double percentile) const {
  if (!exact_) return sketches_[b].percentile(percentile);
  std::vector<double> batch = exact_values_[b];
  std::sort(batch.begin(), batch.end());
  return percentile_of_sorted(batch, percentile);
}

std::size_t MetricStats::kept() const {
  std::size_t n = 0;
  for (const auto& v : exact_values_) n += v.size();
  return n;
}

Statistic MetricStats::statistic(double percentile) const {
  const std::size_t slots = counts_.size();
  std::uint64_t count = 0;
  double sum = 0;
  for (std::size_t b = 0; b < slots; ++b) {
    count += counts_[b];
    sum += sums_[b];
  }
  if (count == 0) return {kNaN, kNaN};
  Statistic s;
  std::vector<double> per_batch(slots);
  const bool with_interval = intervals();
  if (percentile == 0) {
    s.value = sum / static_cast<double>(count);
    if (with_interval)
      for (std::size_t b = 0; b < slots; ++b) per_batch[b] = sums_[b] / static_cast<double>(counts_[b]);
  } else {
    if (exact_) {
      std::vector<double> all = values();
      std::sort(all.begin(), all.end());
      s.value = percentile_of_sorted(all, percentile);
    } else {
      QuantileSketch all;
      for (const QuantileSketch& b : sketches_) all.merge(b);
      s.value = all.percentile(percentile);
    }
    if (with_interval)
      for (std::size_t b = 0; b < slots; ++b) per_batch[b] = percentile_of_batch(b, percentile);
  }
  s.half_width = with_interval ? batch_means_half_width(per_batch) : kNaN;
  return s;
}

MetricSummary MetricStats::summary() const {
  MetricSummary s;
  for (std::uint64_t c : counts_) s.count += c;
  if (s.count == 0) {
    s.mean = s.mean_half_width = s.max = kNaN;
    s.percentile.fill(kNaN);
    s.half_width.fill(kNaN);
    s.cdf.fill(kNaN);
    return s;
  }
  const Statistic mean = statistic(0);
  s.mean = mean.value;
  s.mean_half_width = mean.half_width;
  for (std::size_t p = 0; p < kPercentiles.size(); ++p) {
    const Statistic q = statistic(kPercentiles[p]);
    s.percentile[p] = q.value;
    s.half_width[p] = q.half_width;
  }
  // The maximum and the CDF points P1..P99 from every value (exact) or the merged sketch.
  if (exact_) {
    std::vector<double> all = values();
    std::sort(all.begin(), all.end());
    s.max = all.back();
    for (std::size_t i = 0; i < kCdfPoints; ++i)
      s.cdf[i] = percentile_of_sorted(all, static_cast<double>(i + 1));
  } else {
    QuantileSketch all;
    for (const QuantileSketch& b : sketches_) all.merge(b);
    s.max = all.max();
    for (std::size_t i = 0; i < kCdfPoints; ++i) s.cdf[i] = all.percentile(static_cast<double>(i + 1));
  }
  return s;
}

}  // namespace tessera::requests
