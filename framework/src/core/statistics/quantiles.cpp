#include "core/statistics/quantiles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace tessera {

double quantile_of_sorted(std::span<const double> v, double fraction) {
  if (v.empty()) throw std::invalid_argument("quantile of no values");
  const double h = (static_cast<double>(v.size()) - 1) * std::clamp(fraction, 0.0, 1.0);
  const auto lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double percentile_of_sorted(std::span<const double> sorted, double q) {
  if (!(q >= 0 && q <= 100)) throw std::invalid_argument("percentile outside [0, 100]");
  return quantile_of_sorted(sorted, q / 100.0);
}

std::size_t batch_count(std::size_t n) {
  const std::size_t k = std::min(kBatches, n / kMinBatchSize);
  return k < 2 ? 0 : k;
}

namespace {

// t_{df, 0.975} and t_{df, 0.995} for df = 1..30 (any statistics table, e.g. NIST/SEMATECH
// e-Handbook of Statistical Methods, §1.3.6.7.2).
constexpr std::array<double, 30> kT975{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                       2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                       2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
constexpr std::array<double, 30> kT995{63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
                                       3.106,  3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
                                       2.831,  2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750};

}  // namespace

double student_t(std::size_t df, double p) {
  if (df == 0) throw std::invalid_argument("t quantile of 0 degrees of freedom");
  const bool p975 = p == 0.975;
  if (!p975 && p != 0.995) throw std::invalid_argument("t quantile tabulated for p = 0.975 and 0.995 only");
  if (df <= 30) return (p975 ? kT975 : kT995)[df - 1];
  // Cornish-Fisher expansion of t in the normal quantile z (Abramowitz & Stegun 26.7.5).
  const double z = p975 ? 1.959964 : 2.575829;
  const double n = static_cast<double>(df);
  const double z3 = z * z * z, z5 = z3 * z * z;
  return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
}

double batch_means_half_width(std::span<const double> batch_values, double confidence) {
  const std::size_t k = batch_values.size();
  if (k < 2) return std::numeric_limits<double>::quiet_NaN();
  double mean = 0;
  for (double v : batch_values) mean += v;
  mean /= static_cast<double>(k);
  double ss = 0;
  for (double v : batch_values) ss += (v - mean) * (v - mean);
  const double s = std::sqrt(ss / static_cast<double>(k - 1));
  const double p = confidence == 0.99 ? 0.995 : 0.975;
  if (confidence != 0.95 && confidence != 0.99) throw std::invalid_argument("confidence 0.95 or 0.99 only");
  return student_t(k - 1, p) * s / std::sqrt(static_cast<double>(k));
}

}  // namespace tessera
