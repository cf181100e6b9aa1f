#pragma once
// One latency metric of a simulation (TTFT, TPOT, ITL, end-to-end, queueing) summarised as
// benchmarks print it: mean, P50, P90, P99, each with the half-width of its 95 % confidence
// interval by batch means (core/statistics/quantiles.hpp). The measured requests are cut into batches by
// their order of arrival (request id), so the batches do not depend on completion order.
// Exact: every value kept (tests; `--requests`); otherwise each batch a quantile sketch
// (core/statistics/quantile_sketch.hpp, within 0.5 %), memory flat in the number of requests.
#include <array>
#include <cstdint>
#include <vector>

#include "core/statistics/quantile_sketch.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

inline constexpr std::array<double, 3> kPercentiles{50, 90, 99};
// The latency CDF for charts: P1, P2, ..., P99 (with `max`, the whole distribution).
inline constexpr std::size_t kCdfPoints = 99;

struct MetricSummary {
  std::uint64_t count = 0;                               // values (0: the statistics are NaN)
  double mean = 0, mean_half_width = 0;                  // s; half-width NaN under two batches
  std::array<double, kPercentiles.size()> percentile{};  // P50, P90, P99 (s)
  std::array<double, kPercentiles.size()> half_width{};
  double max = 0;
  std::array<double, kCdfPoints> cdf{};  // cdf[i]: P(i + 1) (s), exact or from the sketch
};

// A statistic and the half-width of its 95 % confidence interval (seconds).
struct Statistic {
  double value = 0;
  double half_width = 0;
};

class TESSERA_API MetricStats {
 public:
  // `measured`: how many requests are measured (their order 0 .. measured − 1); exact or sketched.
  MetricStats(std::uint64_t measured, bool exact);

  // `count` values of `value` (>= 0, seconds), of the request measured `order`-th.
  void add(std::uint64_t order, double value, std::uint64_t count = 1);
  MetricSummary summary() const;
  // One statistic: the mean (`percentile` 0) or a percentile in (0, 100), with the half-width
  // of its 95 % interval (NaN under two batches); NaN without values.
  Statistic statistic(double percentile) const;
  // Exact mode: the values, batch by batch (each batch in the order added).
  std::vector<double> values() const;
  // Values held one by one (exact mode's; 0 with sketches: memory flat in the requests).
  std::size_t kept() const;

 private:
  std::uint64_t measured_;
  std::size_t batches_;  // batch_count(measured): 0 = one batch, no interval
  bool exact_;
  std::vector<std::vector<double>> exact_values_;  // per batch
  std::vector<QuantileSketch> sketches_;           // per batch
  std::vector<double> sums_;                       // per batch
  bool intervals() const;                          // every batch holds values, and there are two or more
  double percentile_of_batch(std::size_t b, double percentile) const;
  std::vector<std::uint64_t> counts_;  // per batch
};

}  // namespace tessera::requests
