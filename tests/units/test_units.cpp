#include <catch2/catch.hpp>

#include <limits>
#include <string>

#include "tessera/error.hpp"
#include "tessera/units.hpp"

using tessera::Dimension;
using tessera::format_quantity;
using tessera::InputError;
using tessera::parse_quantity;
using tessera::parse_token_count;

namespace {
std::string error_of(const std::string& text, Dimension d) {
  try {
    parse_quantity(text, d);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("every dimension parses with its unit", "[units]") {
  CHECK(parse_quantity("2 us", Dimension::time) == Approx(2e-6));
  CHECK(parse_quantity("2 µs", Dimension::time) == Approx(2e-6));
  CHECK(parse_quantity("2 μs", Dimension::time) == Approx(2e-6));
  CHECK(parse_quantity("1.5 ms", Dimension::time) == Approx(1.5e-3));
  CHECK(parse_quantity("0 s", Dimension::time) == 0.0);
  CHECK(parse_quantity("3 ns", Dimension::time) == Approx(3e-9));
  CHECK(parse_quantity("141 GB", Dimension::bytes) == Approx(141e9));
  CHECK(parse_quantity("80 GiB", Dimension::bytes) == Approx(80.0 * 1024 * 1024 * 1024));
  CHECK(parse_quantity("512 MiB", Dimension::bytes) == Approx(512.0 * 1024 * 1024));
  CHECK(parse_quantity("4.8 TB/s", Dimension::bandwidth) == Approx(4.8e12));
  CHECK(parse_quantity("1 TiB/s", Dimension::bandwidth) == Approx(1099511627776.0));
  CHECK(parse_quantity("989 TFLOP/s", Dimension::flop_rate) == Approx(989e12));
  CHECK(parse_quantity("1979 TFLOPS", Dimension::flop_rate) == Approx(1979e12));
  CHECK(parse_quantity("989 Tflop/s", Dimension::flop_rate) == Approx(989e12));
  CHECK(parse_quantity("400 TOPS", Dimension::flop_rate) == Approx(400e12));
  CHECK(parse_quantity("2 PFLOP/s", Dimension::flop_rate) == Approx(2e15));
  CHECK(parse_quantity("2 TFLOP", Dimension::flops) == Approx(2e12));
  CHECK(parse_quantity("5 GFLOPs", Dimension::flops) == Approx(5e9));
  CHECK(parse_quantity("0.5 pJ", Dimension::energy) == Approx(0.5e-12));
  CHECK(parse_quantity("30 pJ", Dimension::energy) == Approx(30e-12));
  CHECK(parse_quantity("700 W", Dimension::power) == Approx(700.0));
  CHECK(parse_quantity("1.2 kW", Dimension::power) == Approx(1200.0));
  CHECK(parse_quantity("30000 USD", Dimension::money) == Approx(30000.0));
  CHECK(parse_quantity("25 kUSD", Dimension::money) == Approx(25000.0));
  CHECK(parse_quantity("0.92", Dimension::none) == Approx(0.92));
  CHECK(parse_quantity("92%", Dimension::none) == Approx(0.92));
}

TEST_CASE("spacing - signs and scientific notation", "[units]") {
  CHECK(parse_quantity("4.8TB/s", Dimension::bandwidth) == Approx(4.8e12));
  CHECK(parse_quantity("  4.8   TB/s  ", Dimension::bandwidth) == Approx(4.8e12));
  CHECK(parse_quantity("1e12 FLOP/s", Dimension::flop_rate) == Approx(1e12));
  CHECK(parse_quantity("1.5e-6 s", Dimension::time) == Approx(1.5e-6));
  CHECK(parse_quantity(".5 s", Dimension::time) == Approx(0.5));
  CHECK(parse_quantity("+2 us", Dimension::time) == Approx(2e-6));
  CHECK(parse_quantity("-16 GB", Dimension::bytes) == Approx(-16e9));  // sign checks are the caller's
  CHECK(parse_quantity("1 EB", Dimension::bytes) == Approx(1e18));     // E is exa, not an exponent
}

TEST_CASE("bits are converted to bytes", "[units]") {
  CHECK(parse_quantity("400 Gb/s", Dimension::bandwidth) == Approx(50e9));
  CHECK(parse_quantity("400 Gbit/s", Dimension::bandwidth) == Approx(50e9));
  CHECK(parse_quantity("100 Gbps", Dimension::bandwidth) == Approx(12.5e9));
  CHECK(parse_quantity("8 Gb", Dimension::bytes) == Approx(1e9));
  CHECK(parse_quantity("8 Gbit", Dimension::bytes) == Approx(1e9));
}

TEST_CASE("a missing unit is an error naming what was expected", "[units]") {
  const std::string e = error_of("3.35", Dimension::bandwidth);
  CHECK(e ==
        "expected a bandwidth with a unit (B/s, e.g. \"3.35 TB/s\", \"450 GB/s\", \"400 Gb/s\"), found "
        "\"3.35\" (no unit)");
  CHECK_THROWS_AS(parse_quantity("2", Dimension::time), InputError);
  CHECK_THROWS_AS(parse_quantity("16", Dimension::bytes), InputError);
  CHECK_THROWS_AS(parse_quantity("989", Dimension::flop_rate), InputError);
  CHECK_THROWS_AS(parse_quantity("0.5", Dimension::energy), InputError);
  CHECK_THROWS_AS(parse_quantity("700", Dimension::power), InputError);
  CHECK_THROWS_AS(parse_quantity("30000", Dimension::money), InputError);
}

TEST_CASE("a unit of another dimension is an error naming both", "[units]") {
  CHECK(error_of("141 GB", Dimension::bandwidth) ==
        "expected a bandwidth with a unit (B/s, e.g. \"3.35 TB/s\", \"450 GB/s\", \"400 Gb/s\"), found \"141 "
        "GB\", "
        "a byte size");
  CHECK(error_of("2 us", Dimension::bytes).find("found \"2 us\", a time") != std::string::npos);
  CHECK(error_of("989 TFLOPs", Dimension::flop_rate).find("FLOPs is a count") != std::string::npos);
  CHECK(error_of("4 GB", Dimension::none).find("expected a plain number") != std::string::npos);
  CHECK_THROWS_AS(parse_quantity("1 W", Dimension::energy), InputError);
}

TEST_CASE("unknown units - prefixes and numbers are errors", "[units]") {
  CHECK(error_of("3 secs", Dimension::time).find("unknown unit 'secs'") != std::string::npos);
  CHECK(error_of("4.8 TBs", Dimension::bandwidth).find("unknown unit 'TBs'") != std::string::npos);
  CHECK(error_of("fast", Dimension::bandwidth).find("(not a number)") != std::string::npos);
  CHECK(error_of("", Dimension::time).find("(empty)") != std::string::npos);
  // Sub-unit prefixes do not apply to bytes: "mB" is almost certainly a typo of "MB".
  CHECK(error_of("16 mB", Dimension::bytes).find("did you mean 'M', mega?") != std::string::npos);
  // Binary prefixes only for bytes and bandwidth.
  CHECK_THROWS_AS(parse_quantity("1 Kis", Dimension::time), InputError);
  CHECK_THROWS_AS(parse_quantity("nan s", Dimension::time), InputError);
  CHECK_THROWS_AS(parse_quantity("inf B", Dimension::bytes), InputError);
}

TEST_CASE("token counts: plain integers or K/M = 1024/1024^2", "[units]") {
  CHECK(parse_token_count("128K") == 131072);
  CHECK(parse_token_count("128 K") == 131072);
  CHECK(parse_token_count("128k") == 131072);
  CHECK(parse_token_count("1M") == 1048576);
  CHECK(parse_token_count("4096") == 4096);
  CHECK(parse_token_count("1.5K") == 1536);
  CHECK(parse_token_count("0") == 0);
  CHECK_THROWS_AS(parse_token_count("128KB"), InputError);
  CHECK_THROWS_AS(parse_token_count("1.5"), InputError);
  CHECK_THROWS_AS(parse_token_count("-4"), InputError);
  CHECK_THROWS_AS(parse_token_count("lots"), InputError);
  CHECK_THROWS_AS(parse_token_count(""), InputError);
  try {
    parse_token_count("12x");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()) ==
          "expected a token count: a whole number, optionally with K or M (K = 1024, M = 1024²), e.g. 4096, "
          "128K, "
          "1M; found \"12x\" (unknown suffix 'x')");
  }
}

TEST_CASE("format_quantity picks a prefix", "[units]") {
  CHECK(format_quantity(0.01285, Dimension::time) == "12.85 ms");
  CHECK(format_quantity(2e-6, Dimension::time) == "2 us");
  CHECK(format_quantity(1.5, Dimension::time) == "1.5 s");
  CHECK(format_quantity(4.8e12, Dimension::bandwidth) == "4.8 TB/s");
  CHECK(format_quantity(989e12, Dimension::flop_rate) == "989 TFLOP/s");
  CHECK(format_quantity(141e9, Dimension::bytes) == "141 GB");
  CHECK(format_quantity(0.5e-12, Dimension::energy) == "500 fJ");
  CHECK(format_quantity(30e-12, Dimension::energy) == "30 pJ");
  CHECK(format_quantity(700, Dimension::power) == "700 W");
  CHECK(format_quantity(30000, Dimension::money) == "30000 USD");
  CHECK(format_quantity(0.25, Dimension::money) == "0.25 USD");
  CHECK(format_quantity(0, Dimension::time) == "0 s");
  CHECK(format_quantity(0.92, Dimension::none) == "0.92");
  CHECK(format_quantity(999.96e9, Dimension::bytes) == "1 TB");  // rounding moves up a prefix
  CHECK(format_quantity(-2e-3, Dimension::time) == "-2 ms");
  CHECK(format_quantity(1234.5678e6, Dimension::bytes, 6) == "1.23457 GB");
  CHECK(format_quantity(12, Dimension::bytes) == "12 B");
}

TEST_CASE("format and parse round-trip", "[units]") {
  for (double v : {0.01285, 3.3e-7, 2.0, 4.5e-9})
    CHECK(parse_quantity(format_quantity(v, Dimension::time, 6), Dimension::time) == Approx(v));
  for (double v : {4.8e12, 3.35e12, 450e9})
    CHECK(parse_quantity(format_quantity(v, Dimension::bandwidth, 6), Dimension::bandwidth) == Approx(v));
}

TEST_CASE("dimension names and examples", "[units]") {
  CHECK(std::string(tessera::dimension_name(Dimension::bandwidth)) == "bandwidth");
  CHECK(std::string(tessera::si_unit(Dimension::bandwidth)) == "B/s");
  CHECK(std::string(tessera::si_unit(Dimension::flop_rate)) == "FLOP/s");
  CHECK(std::string(tessera::unit_examples(Dimension::bandwidth)).find("3.35 TB/s") != std::string::npos);
}

TEST_CASE("quantities are finite after the prefix and inside their dimension's range", "[units][magnitude]") {
  // Finite mantissa, infinite once the prefix is applied (1e300 * 1e18 = inf).
  CHECK(error_of("1e300 EB/s", Dimension::bandwidth) ==
        "expected a bandwidth within 1 kB/s to 1 PB/s, found \"1e300 EB/s\" (not finite once the prefix is "
        "applied)");
  // Finite but implausible: below 1 kFLOP/s.
  CHECK(error_of("1e-300 FLOP/s", Dimension::flop_rate) ==
        "expected a flop rate within 1 kFLOP/s to 1e21 FLOP/s, found \"1e-300 FLOP/s\"");
  // A number a double cannot hold says so (not "not a number").
  CHECK(error_of("1e400 FLOP/s", Dimension::flop_rate)
            .ends_with("found \"1e400 FLOP/s\" (a number beyond the "
                       "range of a double)"));
  CHECK(error_of("1e400", Dimension::none).ends_with("(a number beyond the range of a double)"));
  // The edges of each range, by hand.
  CHECK(parse_quantity("1 kB/s", Dimension::bandwidth) == 1e3);
  CHECK(parse_quantity("1 PB/s", Dimension::bandwidth) == 1e15);
  CHECK_THROWS_AS(parse_quantity("1.001 PB/s", Dimension::bandwidth), InputError);
  CHECK_THROWS_AS(parse_quantity("999 B/s", Dimension::bandwidth), InputError);
  CHECK(parse_quantity("1 ps", Dimension::time) == Approx(1e-12));
  CHECK(parse_quantity("86400 s", Dimension::time) == 86400.0);
  CHECK_THROWS_AS(parse_quantity("0.5 ps", Dimension::time), InputError);
  CHECK_THROWS_AS(parse_quantity("86401 s", Dimension::time), InputError);
  CHECK(parse_quantity("1 EiB", Dimension::bytes) == 1152921504606846976.0);
  CHECK_THROWS_AS(parse_quantity("2 EiB", Dimension::bytes), InputError);
  CHECK_THROWS_AS(parse_quantity("0.5 B", Dimension::bytes), InputError);
  CHECK(parse_quantity("1e21 FLOP/s", Dimension::flop_rate) == 1e21);
  CHECK_THROWS_AS(parse_quantity("2e21 FLOP/s", Dimension::flop_rate), InputError);
  CHECK(parse_quantity("1 fJ", Dimension::energy) == Approx(1e-15));
  CHECK_THROWS_AS(parse_quantity("0.1 fJ", Dimension::energy), InputError);
  CHECK_THROWS_AS(parse_quantity("2 GW", Dimension::power), InputError);
  CHECK_THROWS_AS(parse_quantity("1e13 USD", Dimension::money), InputError);
  // Zero and negative values are the field's business (a range bounds the magnitude).
  CHECK(parse_quantity("0 B/s", Dimension::bandwidth) == 0.0);
  CHECK(parse_quantity("-16 GB", Dimension::bytes) == Approx(-16e9));
  CHECK_THROWS_AS(parse_quantity("-2 EiB", Dimension::bytes), InputError);
  // Plain numbers only need to be finite.
  CHECK(parse_quantity("1e300", Dimension::none) == 1e300);
  CHECK(tessera::within_magnitude_range(4.8e12, Dimension::bandwidth));
  CHECK_FALSE(tessera::within_magnitude_range(std::numeric_limits<double>::quiet_NaN(), Dimension::none));
  CHECK(std::string(tessera::magnitude_range_text(Dimension::time)) == "1 ps to 1 day (86400 s)");
}

TEST_CASE("a token count beyond a double is too large - not garbage", "[units][magnitude]") {
  try {
    parse_token_count("1e400");
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(std::string(e.what()).ends_with("found \"1e400\" (too large)"));
  }
}
