#pragma once
// The error statistics of predicted against measured values: absolute percentage errors
// (APE = |predicted - measured| / measured), their count, median and mean.
#include <cstddef>
#include <vector>

#include "tessera/export.hpp"

namespace tessera::accuracy {

struct ErrorStats {
  std::size_t n = 0;
  double median_ape = 0, mean_ape = 0;
};
TESSERA_API ErrorStats error_stats(const std::vector<double>& apes);

}  // namespace tessera::accuracy
