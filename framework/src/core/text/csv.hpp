#pragma once
// An RFC 4180 CSV scanner held to the input limits (docs/limits.md, "JSON and CSV"): a UTF-8
// byte-order mark is skipped, every record and cell carries its 1-based line and byte column
// (of the cell's first character, after the BOM), a cell longer than `csv.cell_bytes` or more
// than `csv.rows` records after the header are refused at their place, and an unterminated
// quoted cell is reported where it starts. Records are handed to a callback one at a time (the
// buffer is reused), so memory does not grow with the file beyond what the caller keeps.
#include <functional>
#include <string>
#include <vector>

#include "tessera/error.hpp"

namespace tessera {

struct CsvCell {
  std::string text;  // unquoted, "" -> "
  int line = 0;      // 1-based line of the cell's first character
  int column = 0;    // 1-based byte column of the cell's first character
};

struct CsvRecord {
  std::vector<CsvCell> cells;
  int line = 0;  // 1-based line where the record starts
  std::size_t size() const { return cells.size(); }
};

// Calls `on_record` for every non-blank record, the header first. Throws InputErrors (each
// diagnostic located in `file`) on a limit or an unterminated quote; exceptions thrown by
// `on_record` pass through.
void scan_csv(const std::string& text, const std::string& file,
              const std::function<void(const CsvRecord&)>& on_record);

}  // namespace tessera
