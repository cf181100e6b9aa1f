#pragma once
// Cells of the CSV files the reports write (RFC 4180): text quoted when it holds a comma, a
// quote or a newline; numbers with 9 significant digits, non-finite ones left empty.
#include <cmath>
#include <cstdio>
#include <string>

namespace tessera {

inline std::string csv_escape(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string o = "\"";
  for (char c : s) {
    if (c == '"') o += '"';
    o += c;
  }
  return o + "\"";
}

inline std::string csv_num(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace tessera
