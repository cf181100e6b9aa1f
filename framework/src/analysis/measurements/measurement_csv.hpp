#pragma once
// Reading a measurements CSV (the columns of data/measurements.csv) into rows, held
// to the input limits (docs/limits.md, "JSON and CSV"): read with read_input_file, scanned by
// core/text/csv (BOM, csv.cell_bytes, csv.rows), a duplicate or missing header column refused, a
// row with more or fewer cells than the header refused at its line, each count and the value
// held to the cell rules of measurement_cells.hpp at its cell, and an empty or repeated id
// refused at the row (naming the line of the first). Every diagnostic is
// `FILE:LINE:COL: error: ...`.
#include <string>
#include <vector>

#include "core/text/input_text.hpp"  // trim() and lower(): cells are read trimmed, names compared in lower case
#include "tessera/export.hpp"

namespace tessera::accuracy {

// One row of a measurements CSV, cells as written.
struct DataRow {
  std::string id, source, source_locator, software, model, precision, hardware;
  std::string n_devices, tp, pp, ep, batch, input_len, output_len, metric, value, unit, notes;
  int line = 0;  // 1-based line of the row's start in the file
};

// The largest count a row may state whatever the limits (parallel degrees are 32-bit).
inline constexpr long long kMaxRowCount = 2147483647;

// Reads a CSV with the header of measurements.csv (RFC 4180 quoting). Throws InputError
// (InputErrors, each diagnostic located).
TESSERA_API std::vector<DataRow> read_measurements(const std::string& path);

// The same from text (`file` names it in diagnostics).
TESSERA_API std::vector<DataRow> parse_measurements(const std::string& text, const std::string& file);

}  // namespace tessera::accuracy
