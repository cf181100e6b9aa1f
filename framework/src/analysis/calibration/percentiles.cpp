#include "analysis/calibration/percentiles.hpp"

#include <algorithm>
#include <cmath>

#include "core/statistics/quantiles.hpp"

namespace tessera::calibration {

std::optional<double> percentile(std::vector<double> v, double q) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  return quantile_of_sorted(v, q);
}

std::optional<double> median(const std::vector<double>& v) { return percentile(v, 0.5); }

}  // namespace tessera::calibration
