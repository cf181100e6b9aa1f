#include "analysis/accuracy/error_stats.hpp"

#include <algorithm>

namespace tessera::accuracy {

ErrorStats error_stats(const std::vector<double>& apes) {
  ErrorStats s;
  s.n = apes.size();
  if (apes.empty()) return s;
  std::vector<double> v = apes;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.median_ape = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  double sum = 0;
  for (double x : v) sum += x;
  s.mean_ape = sum / static_cast<double>(n);
  return s;
}

}  // namespace tessera::accuracy
