// libFuzzer harness: a measurements CSV through the scanner (core/text/csv), the reader
// (analysis/measurements/measurement_csv) and the row mapping's cell parsing (plan_row with an empty alias
// table, so no file is touched: the value, metric, unit, GEMM/copy shape and count cells are
// read before the first alias look-up). No crash, no hang, only InputError for bad input.
// Seeds: tests/fuzz/corpus/csv/.
#include <cstddef>
#include <cstdint>
#include <string>

#include "analysis/accuracy/accuracy_study.hpp"
#include "tessera/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto rows = tessera::accuracy::parse_measurements(text, "fuzz.csv");
    const tessera::accuracy::Aliases none;
    for (const auto& row : rows) (void)tessera::accuracy::plan_row(row, none, "/nonexistent-tessera-root");
  } catch (const tessera::InputError&) {
  }
  return 0;
}
