#pragma once
// A plugin's parameter schema, declared once beside its code (SST-core style): the host
// validates scenario values against it before any plugin object exists, fills defaults,
// and `tessera plugins` prints it.
#include <cstdint>
#include <limits>

#include "tessera/units.hpp"

namespace tessera {

enum class ParamType : std::uint8_t {
  integer,      // int64
  real,         // double, unit-less
  boolean,      // true/false
  string,       // free text
  enumeration,  // one of `choices`
  quantity,     // double with a unit of `dimension`, stored in SI
  real_list,    // list of unit-less doubles
};

struct ParamChoice {
  const char* value;
  const char* meaning;  // one line
};

inline constexpr double kNoMin = -std::numeric_limits<double>::infinity();
inline constexpr double kNoMax = std::numeric_limits<double>::infinity();

struct ParamSpec {
  const char* name;
  ParamType type;
  Dimension dimension;         // for quantity; Dimension::none otherwise
  const char* default_value;   // as written in YAML ("2 us", "7", "true"); nullptr = required
  double min;                  // inclusive, in SI (for integer, real, quantity, list items)
  double max;                  // inclusive
  const ParamChoice* choices;  // for enumeration
  std::uint32_t choice_count;
  const char* help;
};

TESSERA_API const char* param_type_name(ParamType t);

}  // namespace tessera
