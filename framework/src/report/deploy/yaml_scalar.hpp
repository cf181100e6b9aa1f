#pragma once
// Strings written as YAML scalars that read back as exactly those strings: plain when the text is
// plainly text (ASCII letters, digits, inner spaces and . _ / + ( ) -, starting with a letter, and
// not a word YAML reads as a boolean or null), else double-quoted with '"', '\' and every control
// character escaped, so that no value can end its line, open a mapping or start a comment.
#include <cstdio>
#include <string>

namespace tessera {

inline bool yaml_plain_safe(const std::string& s) {
  auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (s.empty() || !letter(s.front()) || s.back() == ' ') return false;
  for (char c : s)
    if (!letter(c) && !(c >= '0' && c <= '9') && std::string(" ._/+()-").find(c) == std::string::npos)
      return false;
  std::string lower;
  for (char c : s) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  for (const char* word : {"y", "n", "yes", "no", "true", "false", "on", "off", "null"})
    if (lower == word) return false;
  return true;
}

inline std::string yaml_scalar(const std::string& s) {
  if (yaml_plain_safe(s)) return s;
  std::string o = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (c == '\n') {
      o += "\\n";
    } else if (c == '\r') {
      o += "\\r";
    } else if (c == '\t') {
      o += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", u);
      o += buf;
    } else {
      o += c;
    }
  }
  return o + "\"";
}

}  // namespace tessera
