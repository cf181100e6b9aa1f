#pragma once
// The units a measurement row's value may be written in (its `unit` cell) that validate-data
// predicts in: times and bandwidths, each as the factor from SI (a value in ms = seconds × 1e3).
#include <optional>
#include <string>

namespace tessera::validation {

// s, sec, seconds, ms, us, µs, ns (any case, blanks around): the factor from seconds.
std::optional<double> time_unit_scale(const std::string& unit);

// B/s, MB/s, GB/s, TB/s (any case, blanks around): the factor from bytes per second.
std::optional<double> bandwidth_unit_scale(const std::string& unit);

}  // namespace tessera::validation
