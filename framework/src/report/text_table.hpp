#pragma once
// Aligned text tables for people: a header row (ruled off, plain, or left out), right-aligned
// numeric columns. Columns are two spaces apart; no line ends in white space.
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
  explicit TextTable(std::vector<std::string> headers, std::vector<Align> align = {},
                     Header header = Header::ruled);
  void add_row(std::vector<std::string> cells);
  void add_separator();
  void print(std::ostream& os, const std::string& indent = "") const;
  std::size_t rows() const { return rows_.size(); }

 private:
  std::vector<std::string> headers_;
  std::vector<Align> align_;
  Header header_;
  std::vector<std::vector<std::string>> rows_;  // an empty row = a separator
};

// Fixed-precision number for a table cell ("0.421").
TESSERA_API std::string fixed(double v, int decimals);
// UTF-8 aware display width (µ, τ count as one column).
TESSERA_API std::size_t display_width(const std::string& s);

}  // namespace tessera
