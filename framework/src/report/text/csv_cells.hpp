#pragma once
// Cells of the CSV files the reports write (RFC 4180): text quoted when it holds a comma, a
// quote or a line break; numbers with 9 significant digits, non-finite ones left empty.
#include <cmath>
#include <cstdio>
#include <string>

namespace tessera {

inline std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

// A text cell from input (a name a file chose) that a spreadsheet shows as text: one starting
// with = + - @, a tab or a carriage return (a formula, or one once the spreadsheet trims it) gets
// a leading single quote (OWASP "CSV injection"), then csv_escape.
inline std::string csv_text(const std::string& s) {
  if (!s.empty() && std::string("=+-@\t\r").find(s.front()) != std::string::npos) return csv_escape("'" + s);
  return csv_escape(s);
}

inline std::string csv_num(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace tessera
