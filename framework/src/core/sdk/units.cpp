// The one unit parser (tessera/units.hpp). Grammar: `<number> [space] [prefix]<unit>`.
//   number   decimal or scientific ("4.8", "1e12", ".5"), optional sign
//   prefix   decimal: f p n u µ μ m k K M G T P E; binary: Ki Mi Gi Ti Pi Ei
//   unit     per dimension (see kUnits below); bits ("Gb", "Gb/s", "Gbit/s", "Gbps") are
//            converted to bytes (÷ 8)
// Sub-unit prefixes (f..m) only apply to time, energy, power and money; binary prefixes only
// to bytes and bandwidth.
#include "tessera/units.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "core/text/input_text.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {

struct DimInfo {
  Dimension dim;
  const char* name;
  const char* unit;
  const char* examples;
  const char* article;  // "a" / "an"
};

constexpr std::array<DimInfo, 9> kDims{{
    {Dimension::none, "plain number", "", "\"0.92\", \"8\"", "a"},
    {Dimension::time, "time", "s", "\"2 us\", \"1.5 ms\", \"0 s\"", "a"},
    {Dimension::bytes, "byte size", "B", "\"141 GB\", \"80 GiB\", \"512 MB\"", "a"},
    {Dimension::bandwidth, "bandwidth", "B/s", "\"3.35 TB/s\", \"450 GB/s\", \"400 Gb/s\"", "a"},
    {Dimension::flop_rate, "flop rate", "FLOP/s", "\"989 TFLOP/s\", \"1979 TFLOPS\", \"400 TOPS\"", "a"},
    {Dimension::flops, "FLOP count", "FLOP", "\"2 TFLOP\", \"1e12 FLOP\"", "a"},
    {Dimension::energy, "energy", "J", "\"0.5 pJ\", \"30 pJ\", \"1 nJ\"", "an"},
    {Dimension::power, "power", "W", "\"700 W\", \"1.2 kW\"", "a"},
    {Dimension::money, "money amount", "USD", "\"30000 USD\", \"25 kUSD\"", "a"},
}};

const DimInfo& info(Dimension d) { return kDims[static_cast<std::size_t>(d)]; }

struct UnitDef {
  const char* text;
  Dimension dim;
  double factor;  // SI per unit (bits: 1/8)
  bool case_insensitive;
};

// Longer spellings first is not needed: every candidate is tried and the prefix must be valid.
const std::vector<UnitDef>& unit_table() {
  static const std::vector<UnitDef> t = {
      {"s", Dimension::time, 1.0, false},          {"sec", Dimension::time, 1.0, false},
      {"B", Dimension::bytes, 1.0, false},         {"b", Dimension::bytes, 0.125, false},
      {"bit", Dimension::bytes, 0.125, false},     {"bits", Dimension::bytes, 0.125, false},
      {"B/s", Dimension::bandwidth, 1.0, false},   {"Bps", Dimension::bandwidth, 1.0, false},
      {"b/s", Dimension::bandwidth, 0.125, false}, {"bit/s", Dimension::bandwidth, 0.125, false},
      {"bps", Dimension::bandwidth, 0.125, false}, {"FLOP/s", Dimension::flop_rate, 1.0, true},
      {"FLOPS", Dimension::flop_rate, 1.0, false}, {"flops", Dimension::flop_rate, 1.0, false},
      {"OP/s", Dimension::flop_rate, 1.0, true},   {"OPS", Dimension::flop_rate, 1.0, false},
      {"ops", Dimension::flop_rate, 1.0, false},   {"FLOP", Dimension::flops, 1.0, true},
      {"FLOPs", Dimension::flops, 1.0, false},     {"J", Dimension::energy, 1.0, false},
      {"W", Dimension::power, 1.0, false},         {"USD", Dimension::money, 1.0, false},
      {"%", Dimension::none, 0.01, false},
  };
  return t;
}

struct Prefix {
  const char* text;
  double factor;
  enum Kind { big, small, binary } kind;
};

const std::vector<Prefix>& prefix_table() {
  static const std::vector<Prefix> t = {
      {"", 1.0, Prefix::big},
      {"k", 1e3, Prefix::big},
      {"K", 1e3, Prefix::big},
      {"M", 1e6, Prefix::big},
      {"G", 1e9, Prefix::big},
      {"T", 1e12, Prefix::big},
      {"P", 1e15, Prefix::big},
      {"E", 1e18, Prefix::big},
      {"m", 1e-3, Prefix::small},
      {"u", 1e-6, Prefix::small},
      {"\xC2\xB5", 1e-6, Prefix::small},  // µ micro sign
      {"\xCE\xBC", 1e-6, Prefix::small},  // μ greek mu
      {"n", 1e-9, Prefix::small},
      {"p", 1e-12, Prefix::small},
      {"f", 1e-15, Prefix::small},
      {"Ki", 1024.0, Prefix::binary},
      {"Mi", 1048576.0, Prefix::binary},
      {"Gi", 1073741824.0, Prefix::binary},
      {"Ti", 1099511627776.0, Prefix::binary},
      {"Pi", 1125899906842624.0, Prefix::binary},
      {"Ei", 1152921504606846976.0, Prefix::binary},
  };
  return t;
}

bool allows(Prefix::Kind k, Dimension d) {
  switch (k) {
    case Prefix::big:
      return d != Dimension::none;
    case Prefix::small:
      return d == Dimension::time || d == Dimension::energy || d == Dimension::power || d == Dimension::money;
    case Prefix::binary:
      return d == Dimension::bytes || d == Dimension::bandwidth;
  }
  return false;
}

struct UnitMatch {
  Dimension dim;
  double factor;
  bool prefix_ok;  // false: the unit is known but its prefix does not apply to the dimension
  std::string prefix;
};

// Every reading of `unit` as [prefix]base; the first with an allowed prefix wins.
std::optional<UnitMatch> match_unit(std::string_view unit) {
  std::optional<UnitMatch> fallback;
  for (const auto& u : unit_table()) {
    const std::string_view base = u.text;
    if (unit.size() < base.size()) continue;
    const std::string_view tail = unit.substr(unit.size() - base.size());
    if (!(u.case_insensitive ? iequals(tail, base) : tail == base)) continue;
    const std::string_view pre = unit.substr(0, unit.size() - base.size());
    for (const auto& p : prefix_table()) {
      if (pre != p.text) continue;
      if (allows(p.kind, u.dim) || pre.empty())
        return UnitMatch{u.dim, u.factor * p.factor, true, std::string(pre)};
      if (!fallback) fallback = UnitMatch{u.dim, u.factor * p.factor, false, std::string(pre)};
    }
  }
  return fallback;
}

// Splits "4.8 TB/s" into 4.8 and "TB/s". nullopt when it does not start with a finite number;
// `*out_of_range` then tells a number beyond a double ("1e400", "1e-400") from no number.
std::optional<std::pair<double, std::string>> split_number(std::string_view text,
                                                           bool* out_of_range = nullptr) {
  const std::string t = trim(text);
  if (t.empty()) return std::nullopt;
  std::size_t i = 0;
  if (t[i] == '+' || t[i] == '-') ++i;
  bool any_digit = false;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, any_digit = true;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, any_digit = true;
  }
  if (!any_digit) return std::nullopt;
  // Exponent only when followed by digits ("1e12"; "1 EB" is exa-bytes, handled as unit).
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    std::size_t j = i + 1;
    if (j < t.size() && (t[j] == '+' || t[j] == '-')) ++j;
    if (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) {
      while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
      i = j;
    }
  }
  double v = 0;
  const char* first = t.data() + (t[0] == '+' ? 1 : 0);
  auto [ptr, ec] = std::from_chars(first, t.data() + i, v);
  if (out_of_range) *out_of_range = ec == std::errc::result_out_of_range;
  if (ec != std::errc() || ptr != t.data() + i || !std::isfinite(v)) return std::nullopt;
  return std::make_pair(v, trim(std::string_view(t).substr(i)));
}

std::string expected_text(Dimension d) {
  const auto& di = info(d);
  if (d == Dimension::none) return "a plain number (e.g. " + std::string(di.examples) + ")";
  return std::string(di.article) + " " + di.name + " with a unit (" + di.unit + ", e.g. " + di.examples + ")";
}

std::string found_dimension_text(Dimension d) {
  const auto& di = info(d);
  return std::string(di.article) + " " + di.name;
}

// The plausible magnitude of each dimension, after the prefix is applied (docs/limits.md,
// "Magnitudes and arithmetic"). Zero passes (fields that cannot be zero say so themselves);
// otherwise |value| must lie in [min, max]. Wide enough for any hardware of the field, narrow
// enough that no product the physics forms leaves a double's range.
struct MagnitudeRange {
  Dimension dim;
  double min;
  double max;
  const char* text;
};

constexpr std::array<MagnitudeRange, 8> kRanges{{
    {Dimension::time, 1e-12, 86400.0, "1 ps to 1 day (86400 s)"},
    {Dimension::bytes, 1.0, 1152921504606846976.0, "1 B to 1 EiB"},
    {Dimension::bandwidth, 1e3, 1e15, "1 kB/s to 1 PB/s"},
    {Dimension::flop_rate, 1e3, 1e21, "1 kFLOP/s to 1e21 FLOP/s"},
    {Dimension::flops, 1.0, 1e30, "1 FLOP to 1e30 FLOP"},
    {Dimension::energy, 1e-15, 1e12, "1 fJ to 1 TJ"},
    {Dimension::power, 1e-3, 1e9, "1 mW to 1 GW"},
    {Dimension::money, 1e-6, 1e12, "1 uUSD to 1e12 USD"},
}};

const MagnitudeRange* range_of(Dimension d) {
  for (const auto& r : kRanges)
    if (r.dim == d) return &r;
  return nullptr;
}

}  // namespace

const char* dimension_name(Dimension d) { return info(d).name; }

const char* magnitude_range_text(Dimension d) {
  const MagnitudeRange* r = range_of(d);
  return r ? r->text : "any finite value";
}

bool within_magnitude_range(double value_si, Dimension d) {
  if (!std::isfinite(value_si)) return false;
  const MagnitudeRange* r = range_of(d);
  if (r == nullptr || value_si == 0) return true;
  const double a = std::fabs(value_si);
  return a >= r->min && a <= r->max;
}
const char* si_unit(Dimension d) { return info(d).unit; }
const char* unit_examples(Dimension d) { return info(d).examples; }

double parse_quantity(std::string_view text, Dimension expected) {
  const std::string shown = trim(text);
  bool out_of_range = false;
  const auto num = split_number(text, &out_of_range);
  if (!num) {
    throw InputError("expected " + expected_text(expected) + ", found \"" + shown + "\"" +
                     (shown.empty()  ? " (empty)"
                      : out_of_range ? " (a number beyond the range of a double)"
                                     : " (not a number)"));
  }
  const auto& [value, unit] = *num;
  if (unit.empty()) {
    if (expected == Dimension::none) return value;
    throw InputError("expected " + expected_text(expected) + ", found \"" + shown + "\" (no unit)");
  }
  const auto m = match_unit(unit);
  if (!m) {
    std::string hint;
    if (expected == Dimension::flop_rate && (unit.ends_with("FLOPs") || unit.ends_with("flop")))
      hint = "; a rate is written FLOP/s or FLOPS";
    throw InputError("expected " + expected_text(expected) + ", found \"" + shown + "\" (unknown unit '" +
                     unit + "')" + hint);
  }
  if (m->dim != expected) {
    std::string hint;
    if (expected == Dimension::flop_rate && m->dim == Dimension::flops)
      hint = " (FLOPs is a count; a rate is written FLOP/s or FLOPS)";
    if (expected == Dimension::none)
      throw InputError("expected " + expected_text(expected) + ", found \"" + shown + "\", " +
                       found_dimension_text(m->dim) + hint);
    throw InputError("expected " + expected_text(expected) + ", found \"" + shown + "\", " +
                     found_dimension_text(m->dim) + hint);
  }
  if (!m->prefix_ok) {
    std::string hint;
    if (m->prefix == "m") hint = " (did you mean 'M', mega?)";
    throw InputError("expected " + expected_text(expected) + ", found \"" + shown + "\" (prefix '" +
                     m->prefix + "' does not apply to a " + info(expected).name + ")" + hint);
  }
  const double si = value * m->factor;
  if (!within_magnitude_range(si, expected)) {
    throw InputError("expected " + std::string(info(expected).article) + " " + info(expected).name +
                     " within " + magnitude_range_text(expected) + ", found \"" + shown + "\"" +
                     (std::isfinite(si) ? "" : " (not finite once the prefix is applied)"));
  }
  return si;
}

std::int64_t parse_token_count(std::string_view text) {
  const std::string shown = trim(text);
  const auto fail = [&](const std::string& why) -> std::int64_t {
    throw InputError(
        "expected a token count: a whole number, optionally with K or M "
        "(K = 1024, M = 1024²), e.g. 4096, 128K, 1M; found \"" +
        shown + "\"" + why);
  };
  bool out_of_range = false;
  const auto num = split_number(text, &out_of_range);
  if (!num) return fail(shown.empty() ? " (empty)" : out_of_range ? " (too large)" : "");
  const auto& [value, unit] = *num;
  double scale = 1;
  if (unit.empty()) {
    scale = 1;
  } else if (unit == "K" || unit == "k") {
    scale = 1024;
  } else if (unit == "M" || unit == "m") {
    scale = 1024.0 * 1024.0;
  } else {
    return fail(" (unknown suffix '" + unit + "')");
  }
  const double v = value * scale;
  if (v < 0) return fail(" (negative)");
  if (v != std::floor(v)) return fail(" (not a whole number of tokens)");
  if (v > 9.0e18) return fail(" (too large)");
  return static_cast<std::int64_t>(v);
}

namespace {

std::string format_number(double v, int significant) {
  if (significant < 1) significant = 1;
  char buf[64];
  // Enough digits after the point for `significant` digits, then trailing zeros dropped.
  const double a = std::fabs(v);
  int int_digits = a >= 1 ? static_cast<int>(std::floor(std::log10(a))) + 1 : 1;
  // Rounding may add a digit (999.96 -> 1000.0); the precision below still gives sane output.
  int decimals = std::max(0, significant - int_digits);
  if (a > 0 && a < 1) decimals = significant - 1 - static_cast<int>(std::floor(std::log10(a)));
  if (decimals > 12) decimals = 12;
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

}  // namespace

std::string format_quantity(double value_si, Dimension d, int significant) {
  if (!std::isfinite(value_si)) return value_si > 0 ? "inf" : (value_si < 0 ? "-inf" : "nan");
  if (d == Dimension::none) return format_number(value_si, significant);
  const std::string unit = si_unit(d);
  if (value_si == 0) return "0 " + unit;
  struct P {
    double f;
    const char* t;
  };
  static constexpr P kBig[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"},
                               {1e6, "M"},  {1e3, "k"},  {1, ""}};
  static constexpr P kSmall[] = {{1, ""}, {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}, {1e-15, "f"}};
  const double a = std::fabs(value_si);
  // Pick the prefix that puts the mantissa in [1, 1000); rounding to `significant` digits may
  // reach 1000, in which case the next prefix is used.
  auto render = [&](const P& p) { return format_number(value_si / p.f, significant) + " " + p.t + unit; };
  const bool allow_small = d == Dimension::time || d == Dimension::energy || d == Dimension::power;
  const bool allow_big = d != Dimension::time && d != Dimension::money;
  if (a >= 1) {
    if (!allow_big) return format_number(value_si, significant) + " " + unit;
    for (std::size_t i = 0; i < std::size(kBig); ++i) {
      if (a >= kBig[i].f * (1 - 1e-12)) {
        const double mant = a / kBig[i].f;
        if (i > 0 && std::stod(format_number(mant, significant)) >= 1000) return render(kBig[i - 1]);
        return render(kBig[i]);
      }
    }
    return render(kBig[std::size(kBig) - 1]);
  }
  if (!allow_small) return format_number(value_si, significant) + " " + unit;
  for (std::size_t i = 1; i < std::size(kSmall); ++i) {
    if (a >= kSmall[i].f * (1 - 1e-12)) {
      const double mant = a / kSmall[i].f;
      if (std::stod(format_number(mant, significant)) >= 1000) return render(kSmall[i - 1]);
      return render(kSmall[i]);
    }
  }
  return render(kSmall[std::size(kSmall) - 1]);
}

}  // namespace tessera
