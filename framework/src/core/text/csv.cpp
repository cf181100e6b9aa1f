// RFC 4180 scanning, one byte at a time: no regular expression, no recursion, bounded cells.
// A record begins at its first byte; each ',' begins the next cell; a line break outside
// quotes ends the record (a blank line is no record); "" inside quotes is one quote.
#include "core/text/csv.hpp"

#include "tessera/limits.hpp"

namespace tessera {

namespace {

[[noreturn]] void refuse(const std::string& file, int line, int column, std::string message) {
  throw InputErrors({Diagnostic{SourceLocation{file, line, column}, std::move(message)}});
}

bool is_bom(const std::string& t) {
  return t.size() >= 3 && static_cast<unsigned char>(t[0]) == 0xEF &&
         static_cast<unsigned char>(t[1]) == 0xBB && static_cast<unsigned char>(t[2]) == 0xBF;
}

// The scan's position and the record being built, held to the limits on cell bytes and data
// rows; each record is handed to on_record as it ends.
struct CsvScanState {
  // The scan begins at byte `first` (after a byte-order mark).
  CsvScanState(const std::string& source, const std::function<void(const CsvRecord&)>& callback,
               std::size_t first)
      : lim(current_limits()), file(source), on_record(callback), line_start(first) {}

  const Limits& lim;
  const std::string& file;
  const std::function<void(const CsvRecord&)>& on_record;
  std::size_t line_start = 0;  // offset of the current line's first byte
  int line = 1;
  CsvRecord rec;
  std::size_t used = 0;  // cells of `rec` in use (their buffers are reused across records)
  std::uint64_t data_rows = 0;
  bool open = false;  // a record has begun
  bool header = true;

  // A cell of `rec` begins at byte `at` of the text.
  void begin_cell(std::size_t at) {
    if (used == rec.cells.size()) rec.cells.emplace_back();
    CsvCell& c = rec.cells[used++];
    c.text.clear();
    c.line = line;
    c.column = static_cast<int>(at - line_start + 1);
  }
  // One more byte of the current cell.
  void push(char ch) {
    CsvCell& c = rec.cells[used - 1];
    if (c.text.size() >= lim.csv_cell_bytes)
      refuse(file, c.line, c.column,
             "a cell longer than " + std::to_string(lim.csv_cell_bytes) + " bytes " +
                 limit_exceeded("csv.cell_bytes"));
    c.text += ch;
  }
  // The record ends: the header, then at most csv.rows data rows, each handed to on_record.
  void end_record() {
    if (!header && ++data_rows > lim.csv_rows)
      refuse(file, rec.line, 1,
             "more than " + std::to_string(lim.csv_rows) + " data rows " + limit_exceeded("csv.rows"));
    header = false;
    const std::size_t keep = rec.cells.size();
    rec.cells.resize(used);  // shrink only the view the callback sees
    on_record(rec);
    if (rec.cells.size() < keep) rec.cells.resize(keep);
    used = 0;
    open = false;
  }
};

}  // namespace

void scan_csv(const std::string& text, const std::string& file,
              const std::function<void(const CsvRecord&)>& on_record) {
  std::size_t i = is_bom(text) ? 3 : 0;  // spreadsheets write a UTF-8 byte-order mark
  CsvScanState st(file, on_record, i);
  bool quoted = false;
  int quote_line = 0, quote_col = 0;

  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          st.push('"');
          ++i;
        } else {
          quoted = false;
        }
      } else {
        st.push(c);
        if (c == '\n') {
          ++st.line;
          st.line_start = i + 1;
        }
      }
      continue;
    }
    if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (st.open) st.end_record();
      ++st.line;
      st.line_start = i + 1;
      continue;
    }
    if (!st.open) {
      st.open = true;
      st.rec.line = st.line;
      st.begin_cell(i);
    }
    if (c == ',') {
      st.begin_cell(i + 1);
    } else if (c == '"') {
      quoted = true;
      quote_line = st.line;
      quote_col = static_cast<int>(i - st.line_start + 1);
    } else {
      st.push(c);
    }
  }
  if (quoted)
    refuse(file, quote_line, quote_col,
           "unterminated quoted cell: the quote opened here is never closed (a quote inside a cell is "
           "written \"\")");
  if (st.open) st.end_record();
}

}  // namespace tessera
