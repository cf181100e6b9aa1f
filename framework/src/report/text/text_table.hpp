#pragma once
// Aligned text tables for people: a header row (ruled off, plain, or left out), right-aligned
// numeric columns. Columns are two spaces apart; no line ends in white space.
//
// A table can be fitted to a width (a terminal's): print(os, indent, width) first abbreviates
// (each column's short header; a column marked `fold` whose cells are all the same, and the
// tokens common to every cell of a `knobs` column, are named once under the table), then drops
// columns, the highest `drop` rank first, and says in one line under the table what it left out
// and how to see it (`--width 0`). Width 0 prints the table as it is.
#include <ostream>
#include <string>
#include <vector>

#include "tessera/export.hpp"

namespace tessera {

class TESSERA_API TextTable {
 public:
  enum class Align { left, right };
  // ruled: the header row, then a rule of '-' (also drawn by add_separator); plain: the header
  // row alone; none: no header row (the headers only fix the number of columns).
  enum class Header { ruled, plain, none };
  // How a column gives way when the table must fit a width.
  struct Fit {
    int drop = 0;              // 0 = never dropped; else dropped highest rank first (ties: rightmost)
    std::string short_header;  // the header when abbreviating ("" = keep it)
    bool fold = false;         // the same in every row: left out, named once ("ep 1")
    bool knobs = false;        // space-separated tokens ("tp=4 pp=1"): those in every row named once
  };
  explicit TextTable(std::vector<std::string> headers, std::vector<Align> align = {},
                     Header header = Header::ruled);
  void set_fit(std::size_t column, Fit fit);
  void add_row(std::vector<std::string> cells);
  // A row with a shorter form of some cells ("" = the cell as it is), shown when abbreviating.
  void add_row(std::vector<std::string> cells, std::vector<std::string> abbreviated);
  void add_separator();
  // width 0: every column as given. Otherwise at most `width` display columns a line, if the
  // columns that are never dropped allow it.
  void print(std::ostream& os, const std::string& indent = "", std::size_t width = 0) const;
  std::size_t rows() const { return rows_.size(); }

 private:
  std::vector<std::string> headers_;
  std::vector<Align> align_;
  Header header_;
  std::vector<Fit> fit_;
  std::vector<std::vector<std::string>> rows_;   // an empty row = a separator
  std::vector<std::vector<std::string>> short_;  // per row: the abbreviated cells ("" = as is)
};

// Fixed-precision number for a table cell ("0.421").
TESSERA_API std::string fixed(double v, int decimals);
// A rate (tokens/s, requests/s) as a table cell: three significant digits or so, "k" and "M"
// above 10^4 and 10^6, "—" when not finite.
TESSERA_API std::string tokens_rate(double v);
// UTF-8 aware display width (µ, τ count as one column).
TESSERA_API std::size_t display_width(const std::string& s);
// `text` as lines of at most `width` display columns (0 = one line) once each is preceded by
// `indent` (the caller prints the first line's lead, at most as wide), broken at spaces.
TESSERA_API std::string wrap_words(const std::string& text, std::size_t width, const std::string& indent);
// `label` then a comma-separated `list` ("cp=1,tp=8,..."), broken after a comma so that no line
// is wider than `width` (0 = one line; an item wider than the room keeps its own line), continued
// under the list.
TESSERA_API std::string wrap_list(const std::string& label, const std::string& list, std::size_t width);
// Every line of `text` longer than `width` (0 = none) that is prose — no two spaces in a row
// after its label — broken at spaces, continued under the text after its label ("scenario   ").
// Table lines are left as they are (TextTable fits those).
TESSERA_API std::string fit_lines(const std::string& text, std::size_t width);

}  // namespace tessera
