#pragma once
// Words for a POSIX shell (docs/frameworks.md "--deploy"): what a launch script writes as it is,
// and everything else quoted so that sh interprets nothing in it.
#include <string>
#include <string_view>

namespace tessera {

// Every byte in [A-Za-z0-9_./:@=+-], and not empty: sh reads it as one word, as it is.
inline bool shell_plain(std::string_view w) {
  if (w.empty()) return false;
  for (char ch : w)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
          std::string_view("_./:@=+-").find(ch) != std::string_view::npos))
      return false;
  return true;
}

// One word for sh: as it is when plain, else inside single quotes, where sh interprets nothing —
// each quote of the value itself closes the quoting, is written escaped (\') and reopens it.
inline std::string shell_quote(std::string_view v) {
  if (shell_plain(v)) return std::string(v);
  std::string out = "'";
  for (char ch : v) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

}  // namespace tessera
