#pragma once
// Text from input files, file names and the command line made safe to print: a diagnostic may
// echo bytes an attacker (or a corrupted file) chose, and a terminal interprets control
// sequences. Valid UTF-8 other than control characters is kept as is (`µs`, `×`); every
// invalid byte is written `\xHH`, control characters as `\t`, `\n`, `\r`, `\e`, ... or `\xHH`,
// and C1 controls and bidirectional-override characters (Trojan-source) as `\u202E`.
#include <cstddef>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

// The most bytes one printed diagnostic message keeps (docs/limits.md, "## YAML"): a safety net
// so that no path can print a whole file, whatever it echoes.
inline constexpr std::size_t kMaxMessageBytes = 2048;

// `text` with invalid UTF-8 and control characters escaped (see above).
TESSERA_API std::string printable_text(std::string_view text);

// Text of several lines for a terminal or a log (a report, a table, a log line): as
// printable_text, but each '\n' and '\t' kept, so lines stay lines. A name that may hold a
// newline of its own is escaped with printable_text where it is written (a table's cells are),
// so that it cannot start a line that looks like the program's.
TESSERA_API std::string printable_lines(std::string_view text);

// Where the first ASCII control character of `text` is (a byte below 0x20, or DEL), std::string_view::npos
// when none; with `lines_allowed`, newlines and tabs do not count. For text that must stay one
// line (names, config values written as they are).
TESSERA_API std::size_t first_control_character(std::string_view text, bool lines_allowed = false);

// A whole message ready to print: at most kMaxMessageBytes of `message` (cut at a character,
// then "…"), escaped with printable_text. Used where diagnostics and errors are printed.
TESSERA_API std::string printable_message(std::string_view message);

// At most `max_chars` characters (code points) of `text`, followed by "…" when cut; never
// splits a UTF-8 sequence. For echoing a value in "found ..." messages.
TESSERA_API std::string excerpt(std::string_view text, std::size_t max_chars = 60);

// The offset of the first byte that makes `text` binary rather than text: a NUL, or a byte that
// is not part of well-formed UTF-8 (the rules printable_text escapes by); npos when there is none.
TESSERA_API std::size_t first_binary_byte(std::string_view text);

}  // namespace tessera
