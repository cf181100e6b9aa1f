// The time and bandwidth units of a measurement row's value (row_units.hpp).
#include "analysis/row_units.hpp"

#include "core/input_text.hpp"

namespace tessera::validation {

std::optional<double> time_unit_scale(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "s" || u == "sec" || u == "seconds") return 1.0;
  if (u == "ms") return 1e3;
  if (u == "us" || u == "µs" || u == "\xc2\xb5s") return 1e6;
  if (u == "ns") return 1e9;
  return std::nullopt;
}

std::optional<double> bandwidth_unit_scale(const std::string& unit) {
  const std::string u = lower(trim(unit));
  if (u == "b/s") return 1.0;
  if (u == "mb/s") return 1e-6;
  if (u == "gb/s") return 1e-9;
  if (u == "tb/s") return 1e-12;
  return std::nullopt;
}

}  // namespace tessera::validation
