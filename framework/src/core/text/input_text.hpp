#pragma once
// How words read from input text (unit strings, parameter values, CSV cells, `--config`
// items) are compared: without the white space around them, names in ASCII lower case where
// they compare case-insensitively.
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

// `s` without its leading and trailing white space (std::isspace), as a view into `s`.
TESSERA_API std::string_view trim_view(std::string_view s);
// The same, as a string of its own.
TESSERA_API std::string trim(std::string_view s);
// `s` in ASCII lower case.
TESSERA_API std::string lower(std::string s);
// Whether `a` and `b` are equal but for ASCII case.
TESSERA_API bool iequals(std::string_view a, std::string_view b);
// Whether `s` ends with `suffix` but for ASCII case.
TESSERA_API bool iends_with(std::string_view s, std::string_view suffix);

}  // namespace tessera
