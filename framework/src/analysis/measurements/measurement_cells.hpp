#pragma once
// What one cell of a measurements row may hold (docs/limits.md "JSON and CSV", data/README.md
// "Cell rules"). The counts are whole numbers in decimal digits, held to the ranges a scenario
// applies to the same quantities: n_devices to machine.pes, tp, pp and ep to 1..10^6 (as
// sweep.parallelism), batch, input_len and output_len to workload.tokens, none beyond 2^31-1.
// The value is a positive decimal number, within the time or bandwidth range when its unit is
// one. Each check returns the problem, prefixed with the column's name, or "" for a good cell.
#include <string>

namespace tessera::accuracy {

// `column` one of n_devices, tp, pp, ep, batch, input_len, output_len; a blank cell is fine
// (not stated).
std::string count_cell_problem(const std::string& column, const std::string& cell);

// The value cell, `unit` the row's unit cell.
std::string value_cell_problem(const std::string& cell, const std::string& unit);

}  // namespace tessera::accuracy
