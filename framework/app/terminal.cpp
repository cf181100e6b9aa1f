#include "terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <string_view>

#include "core/text/safe_text.hpp"
#include "core/workers/mpi_job.hpp"
#include "report/text/text_table.hpp"
#include "result_stream.hpp"
#include "tessera/error.hpp"

namespace tessera::cli {
namespace {

// A whole number >= 0 of at most 5 digits, or -1.
long columns_of(std::string_view s) {
  if (s.empty() || s.size() > 5) return -1;
  long v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return -1;
    v = v * 10 + (ch - '0');
  }
  return v;
}

bool utf8_locale() {
  for (const char* name : {"LC_ALL", "LC_CTYPE", "LANG"}) {
    const char* v = std::getenv(name);
    if (!v || !*v) continue;
    std::string s(v);
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s.find("utf-8") != std::string::npos || s.find("utf8") != std::string::npos;
  }
  return true;  // unset: Tessera's tables print UTF-8 anyway
}

}  // namespace

void add_terminal_options(po::options_description& desc, TerminalOptions& out, bool plot) {
  desc.add_options()("width", po::value<std::string>(&out.width_text)->value_name("N"),
                     "fit the text tables into N columns (0 = every column; default: the terminal's "
                     "width, or every column into a pipe)");
  if (plot)
    desc.add_options()("no-plot", po::bool_switch(&out.no_plot),
                       "do not draw the Pareto frontier as a text scatter (drawn only on a terminal)");
}

TerminalText terminal_text(const TerminalOptions& o) {
  TerminalText t;
  // Under an MPI launcher the output is forwarded (core/workers/mpi_job.hpp): not a terminal.
  const bool tty = ::isatty(result_fd()) == 1 && !workers::in_mpi_job();
  t.plot = tty && !o.no_plot;
  t.unicode = utf8_locale();
  if (!o.width_text.empty()) {
    const long w = columns_of(o.width_text);
    if (w < 0)
      throw InputError("--width: expected a whole number of columns (0 = every column), found '" +
                       o.width_text + "'");
    t.width = t.width_given = static_cast<std::size_t>(w);
    return t;
  }
  if (!tty) return t;
  if (const char* c = std::getenv("COLUMNS")) {
    const long w = columns_of(c);
    if (w > 0) {
      t.width = static_cast<std::size_t>(w);
      return t;
    }
  }
  winsize ws{};
  if (::ioctl(result_fd(), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    t.width = ws.ws_col;
    return t;
  }
  t.width = 80;
  return t;
}

void print_fitted(std::ostream& os, const std::string& text, const TerminalText& t) {
  os << printable_lines(fit_lines(text, t.width));
}

}  // namespace tessera::cli
