#pragma once
// A number in a JSON report: finite values as numbers, NaN and infinities (which JSON cannot
// spell) as null.
#include <cmath>
#include <nlohmann/json.hpp>

namespace tessera {

inline nlohmann::json json_number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

}  // namespace tessera
