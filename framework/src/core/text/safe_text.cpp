#include "core/text/safe_text.hpp"

#include <cstdint>

namespace tessera {
namespace {

// Length of the well-formed UTF-8 sequence starting at `s[i]` and its code point, or 0 when the
// bytes there are not one (overlong forms, surrogates and values above U+10FFFF included).
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (c < 0x80) {
    cp = c;
    return 1;
  }
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1Fu;
    min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0Fu;
    min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07u;
    min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0u) != 0x80u) return 0;
    cp = (cp << 6) | (b(k) & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

void hex_byte(std::string& out, unsigned char c) {
  static const char* digits = "0123456789ABCDEF";
  out += "\\x";
  out += digits[c >> 4];
  out += digits[c & 0xF];
}

void hex_code_point(std::string& out, std::uint32_t cp) {
  static const char* digits = "0123456789ABCDEF";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += digits[(cp >> shift) & 0xF];
}

// Code points that reorder or hide text on a terminal or in an editor (Unicode bidi controls).
bool is_bidi_control(std::uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E || cp == 0x200F ||
         cp == 0x061C;
}

std::string printable(std::string_view text, bool keep_lines) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8_sequence(text, i, cp);
    if (n == 0) {
      hex_byte(out, static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if (n == 1) {
      const char c = text[i];
      switch (c) {
        case '\t':
          out += keep_lines ? "\t" : "\\t";
          break;
        case '\n':
          out += keep_lines ? "\n" : "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\x1B':
          out += "\\e";
          break;
        case '\0':
          out += "\\0";
          break;
        default:
          if (cp < 0x20 || cp == 0x7F)
            hex_byte(out, static_cast<unsigned char>(c));
          else
            out += c;
      }
    } else if ((cp >= 0x80 && cp <= 0x9F) || is_bidi_control(cp)) {
      hex_code_point(out, cp);
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

}  // namespace

std::string printable_text(std::string_view text) { return printable(text, false); }

std::string printable_lines(std::string_view text) { return printable(text, true); }

std::size_t first_control_character(std::string_view text, bool lines_allowed) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && !(lines_allowed && (c == '\n' || c == '\t'))) || c == 0x7F) return i;
  }
  return std::string_view::npos;
}

std::string printable_message(std::string_view message) {
  if (message.size() <= kMaxMessageBytes) return printable_text(message);
  std::size_t cut = kMaxMessageBytes;
  while (cut > 0 && (static_cast<unsigned char>(message[cut]) & 0xC0u) == 0x80u) --cut;
  return printable_text(message.substr(0, cut)) + "\u2026";
}

std::string excerpt(std::string_view text, std::size_t max_chars) {
  std::size_t i = 0;
  for (std::size_t chars = 0; i < text.size(); ++chars) {
    if (chars == max_chars) return std::string(text.substr(0, i)) + "\u2026";
    std::uint32_t cp = 0;
    const std::size_t n = utf8_sequence(text, i, cp);
    i += n == 0 ? 1 : n;
  }
  return std::string(text);
}

std::size_t first_binary_byte(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp = 0;
    const std::size_t n = utf8_sequence(text, i, cp);
    if (n == 0 || text[i] == '\0') return i;
    i += n;
  }
  return std::string_view::npos;
}

}  // namespace tessera
