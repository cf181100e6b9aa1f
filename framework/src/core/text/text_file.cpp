#include "core/text/text_file.hpp"

#include <algorithm>

#include "core/text/input_file.hpp"
#include "core/text/safe_text.hpp"
#include "tessera/error.hpp"

namespace tessera {

std::string read_text_file(const std::string& path, const std::string& what) {
  std::string text = read_input_file(path, what);
  const std::size_t at = first_binary_byte(text);
  if (at == std::string::npos) return text;
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < at; ++i)
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  static const char* digits = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(text[at]);
  const std::string found = byte == 0 ? std::string("a NUL byte")
                                      : std::string("the byte 0x") + digits[byte >> 4] + digits[byte & 0xF] +
                                            ", which is not UTF-8";
  const auto clamp = [](std::size_t v) { return static_cast<int>(std::min<std::size_t>(v, 1u << 30)); };
  throw InputErrors({Diagnostic{SourceLocation{path, clamp(line), clamp(at - line_start + 1)},
                                what + " is not text: " + found + " (a binary file?)"}});
}

}  // namespace tessera
