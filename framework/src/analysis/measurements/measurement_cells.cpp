// The cell rules of a measurements row (measurement_cells.hpp).
#include "analysis/measurements/measurement_cells.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

#include "analysis/measurements/measurement_csv.hpp"
#include "analysis/measurements/row_units.hpp"
#include "core/text/safe_text.hpp"
#include "tessera/limits.hpp"
#include "tessera/units.hpp"

namespace tessera::accuracy {

namespace {

// The most a parallel degree may be, as sweep.parallelism's degrees (docs/limits.md).
constexpr std::uint64_t kMaxParallelDegree = 1'000'000;

struct CountRule {
  const char* column;
  std::uint64_t min;
  std::uint64_t max;  // the bound itself when `limit` is null, else the cap above the limit
  const char* limit;  // the limit that bounds the column (raisable up to `max`), or null
};

constexpr std::uint64_t kRowCap = static_cast<std::uint64_t>(kMaxRowCount);

constexpr std::array<CountRule, 7> kCountRules{{
    {"n_devices", 1, kRowCap, "machine.pes"},
    {"tp", 1, kMaxParallelDegree, nullptr},
    {"pp", 1, kMaxParallelDegree, nullptr},
    {"ep", 1, kMaxParallelDegree, nullptr},
    {"batch", 1, kRowCap, "workload.tokens"},
    {"input_len", 0, kRowCap, "workload.tokens"},
    {"output_len", 0, kRowCap, "workload.tokens"},
}};

std::string in_quotes(std::string_view s) { return "\"" + excerpt(s, 40) + "\""; }

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// Decimal digits as a number, saturating at UINT64_MAX.
std::uint64_t digits_value(std::string_view s) {
  std::uint64_t v = 0;
  for (char c : s) {
    const auto d = static_cast<std::uint64_t>(c - '0');
    v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
  }
  return v;
}

// digits [. digits] [e [+-] digits], or . digits [...]: a decimal number without a sign.
bool decimal_number(std::string_view s) {
  std::size_t i = 0, mantissa = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mantissa;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++mantissa;
  }
  if (mantissa == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    const std::size_t exponent = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == exponent) return false;
  }
  return i == s.size();
}

}  // namespace

std::string count_cell_problem(const std::string& column, const std::string& cell) {
  const std::string_view t = trim_view(cell);
  if (t.empty()) return "";
  const CountRule* rule = nullptr;
  for (const CountRule& r : kCountRules)
    if (column == r.column) rule = &r;
  if (rule == nullptr) return "";
  const std::string name(rule->column);
  if (!all_digits(t))
    return name + ": expected a whole number in decimal digits (blank when not stated), found " +
           in_quotes(t);
  const std::uint64_t v = digits_value(t);
  const std::string found = excerpt(t, 40);
  if (rule->limit == nullptr) {
    if (v < rule->min || v > rule->max)
      return name + ": expected a whole number from " + std::to_string(rule->min) + " to " +
             std::to_string(rule->max) + ", found " + found;
    return "";
  }
  if (v < rule->min)
    return name + ": expected a whole number of at least " + std::to_string(rule->min) + ", found " + found;
  if (v > limit_value(rule->limit) && limit_value(rule->limit) < rule->max)
    return name + ": " + found + " " + limit_exceeded(rule->limit);
  if (v > rule->max)
    return name + ": expected a whole number of at most " + std::to_string(rule->max) +
           " (a row's counts stay within 2^31-1 whatever the limit " + rule->limit + "), found " + found;
  return "";
}

std::string value_cell_problem(const std::string& cell, const std::string& unit) {
  const std::string_view t = trim_view(cell);
  if (t.empty()) return "value: empty; every row states the measured value";
  const std::string expected = "value: expected a positive decimal number (e.g. 7, 0.25, 6.9e-05), found ";
  if (!decimal_number(t)) return expected + in_quotes(t);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range || !std::isfinite(v))
    return "value: a number beyond the range of a double, found " + in_quotes(t);
  if (ec != std::errc() || end != t.data() + t.size()) return expected + in_quotes(t);
  if (v <= 0) return expected + excerpt(t, 40);
  const auto check = [&](Dimension d, double scale, const char* what) -> std::string {
    if (within_magnitude_range(v / scale, d)) return "";
    return std::string("value: expected ") + what + " within " + magnitude_range_text(d) + ", found " +
           in_quotes(std::string(t) + " " + trim(unit));
  };
  if (const auto s = time_unit_scale(unit)) return check(Dimension::time, *s, "a time");
  if (const auto s = bandwidth_unit_scale(unit)) return check(Dimension::bandwidth, *s, "a bandwidth");
  return "";
}

}  // namespace tessera::accuracy
