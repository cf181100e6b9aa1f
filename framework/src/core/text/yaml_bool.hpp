#pragma once
// YAML 1.2 booleans, for every boolean Tessera reads (the field table's boolean rows and
// plugin parameters of type bool): `true`/`True`/`TRUE` and `false`/`False`/`FALSE` only (the
// core schema). The YAML 1.1 words `yes`/`no`/`on`/`off`/`y`/`n` are strings in YAML 1.2:
// refused where a boolean is expected, with the boolean they meant, so an enum choice named
// `yes`, `on` or `off` keeps its name.
#include <optional>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

// The boolean `text` spells (surrounding blanks ignored), or nullopt.
TESSERA_API std::optional<bool> parse_yaml_bool(std::string_view text);

// For a YAML 1.1 boolean word, "did you mean `true`?" or "did you mean `false`?"; "" for
// anything else.
TESSERA_API std::string yaml11_bool_hint(std::string_view text);

}  // namespace tessera
