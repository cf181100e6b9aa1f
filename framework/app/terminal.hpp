#pragma once
// How the text report meets the terminal: --width N (0 = every column) and, for run and serve,
// --no-plot. On a terminal the width is --width, else COLUMNS, else the terminal's own
// (TIOCGWINSZ), else 80; the Pareto text scatter is drawn unless --no-plot. Into a pipe or a
// file the output is the full one (width 0, no plot) unless --width N is given.
#include <cstddef>
#include <ostream>
#include <string>

#include "common_options.hpp"

namespace tessera::cli {

struct TerminalOptions {
  std::string width_text;  // --width N ("" = not given)
  bool no_plot = false;    // --no-plot
};

struct TerminalText {
  std::size_t width = 0;        // 0 = no limit
  std::size_t width_given = 0;  // --width N as given (0: not given, or 0); the progress line's
  bool plot = false;            // draw the Pareto scatter
  bool unicode = true;          // the locale is UTF-8 (or unknown): box-drawing characters
  std::size_t plot_width() const { return width == 0 ? 80 : width < 100 ? width : 100; }
};

// --width, and --no-plot when `plot` (run, serve).
void add_terminal_options(po::options_description& desc, TerminalOptions& out, bool plot);
// Throws InputError for a --width that is not a whole number >= 0.
TerminalText terminal_text(const TerminalOptions& o);
// `text` as it goes to a terminal of t.width columns: prose lines broken (fit_lines).
void print_fitted(std::ostream& os, const std::string& text, const TerminalText& t);

}  // namespace tessera::cli
