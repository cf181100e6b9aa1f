#include "core/text/yaml_bool.hpp"

#include <algorithm>
#include <array>

#include "core/text/input_text.hpp"

namespace tessera {

std::optional<bool> parse_yaml_bool(std::string_view text) {
  const std::string_view t = trim_view(text);
  if (t == "true" || t == "True" || t == "TRUE") return true;
  if (t == "false" || t == "False" || t == "FALSE") return false;
  return std::nullopt;
}

std::string yaml11_bool_hint(std::string_view text) {
  const std::string t = lower(std::string(trim_view(text)));
  constexpr std::array<std::string_view, 3> yes{"yes", "y", "on"}, no{"no", "n", "off"};
  if (std::find(yes.begin(), yes.end(), t) != yes.end()) return "did you mean `true`?";
  if (std::find(no.begin(), no.end(), t) != no.end()) return "did you mean `false`?";
  return "";
}

}  // namespace tessera
