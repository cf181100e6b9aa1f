#include "analysis/calibration/percentiles.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::calibration {

std::optional<double> percentile(std::vector<double> v, double q) {
  if (v.empty()) return std::nullopt;
  std::sort(v.begin(), v.end());
  const double h = (static_cast<double>(v.size()) - 1) * std::clamp(q, 0.0, 1.0);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

std::optional<double> median(const std::vector<double>& v) { return percentile(v, 0.5); }

}  // namespace tessera::calibration
