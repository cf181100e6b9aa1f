#pragma once
// Order statistics of a calibration's errors: a percentile (linear interpolation between the
// closest ranks, the "R-7" rule of Hyndman & Fan 1996, numpy's default), and a median that is
// absent over zero values (a report prints "—", not 0 %).
#include <optional>
#include <vector>

#include "tessera/export.hpp"

namespace tessera::calibration {

// q in [0, 1]; nullopt for no values.
TESSERA_API std::optional<double> percentile(std::vector<double> values, double q);
TESSERA_API std::optional<double> median(const std::vector<double>& values);

}  // namespace tessera::calibration
