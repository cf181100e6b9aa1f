#include "analysis/measurements/text_scan.hpp"

#include <cctype>

#include "core/text/input_text.hpp"

namespace tessera::accuracy {

bool contains_ci(const std::string& hay, const std::string& needle) {
  return needle.empty() || lower(hay).find(lower(needle)) != std::string::npos;
}

bool scan_digits(const std::string& s, std::size_t& at, double& v) {
  const std::size_t start = at;
  v = 0;
  while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at]))) {
    if (at - start >= 15) return false;
    v = v * 10 + (s[at] - '0');
    ++at;
  }
  return at > start;
}

}  // namespace tessera::accuracy
