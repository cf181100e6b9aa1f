#pragma once
// One unit parser for the whole program. YAML quantities carry units ("4.8 TB/s", "2 us");
// inside, everything is SI doubles: s, B, FLOP, FLOP/s, B/s, J, W, USD.
#include <cstdint>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

enum class Dimension : std::uint8_t {
  none,       // a plain number
  time,       // s
  bytes,      // B
  bandwidth,  // B/s
  flop_rate,  // FLOP/s
  flops,      // FLOP
  energy,     // J
  power,      // W
  money,      // USD
};

TESSERA_API const char* dimension_name(Dimension d);  // "bandwidth"
TESSERA_API const char* si_unit(Dimension d);         // "B/s"
TESSERA_API const char* unit_examples(Dimension d);   // "\"3.35 TB/s\", \"450 GB/s\""

// Parses "<number> <unit>" for the expected dimension, returning SI. Decimal prefixes
// (k M G T P; m u µ n p f) and binary ones (Ki Mi Gi Ti Pi). A missing unit on a dimensioned
// quantity, an unknown unit, a unit of another dimension, or a value outside the dimension's
// magnitude range (below) throws InputError.
TESSERA_API double parse_quantity(std::string_view text, Dimension expected);

// The plausible range of a dimension's values (SI, after the prefix): "1 kB/s to 1 PB/s".
// parse_quantity refuses a value outside it; 0 is always within (fields that need a positive
// value check that themselves). docs/limits.md lists every range.
TESSERA_API const char* magnitude_range_text(Dimension d);
TESSERA_API bool within_magnitude_range(double value_si, Dimension d);

// Token counts: plain integers or K/M suffixes with K = 1024 (128K = 131072 tokens).
TESSERA_API std::int64_t parse_token_count(std::string_view text);

// Human-readable quantity with an auto-chosen prefix: 0.01285 s -> "12.85 ms".
TESSERA_API std::string format_quantity(double value_si, Dimension d, int significant = 4);

}  // namespace tessera
