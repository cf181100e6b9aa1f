#pragma once
// Shared by the calibration tests that plan measurement rows: the shipped alias table, read once,
// and a synthetic decode row (vLLM 0.6.3, Llama-3.1-8B bf16 on one H100, batch 8, 1024 in / 256 out)
// that each test edits to the case it checks.
#include <string>

#include "analysis/measurements/alias_table.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "tessera_build_paths.hpp"

namespace tessera::test {

inline const accuracy::Aliases& shipped_aliases() {
  static const accuracy::Aliases a =
      accuracy::load_aliases(accuracy::default_aliases_path(TESSERA_SOURCE_DIR));
  return a;
}

inline accuracy::DataRow synthetic_decode_row(const std::string& metric, const std::string& value,
                                              const std::string& unit) {
  accuracy::DataRow r;
  r.id = metric;
  r.source = "synthetic";
  r.software = "vLLM 0.6.3";
  r.model = "Llama-3.1-8B";
  r.precision = "bf16";
  r.hardware = "H100 SXM 80GB";
  r.n_devices = "1";
  r.tp = "1";
  r.batch = "8";
  r.input_len = "1024";
  r.output_len = "256";
  r.metric = metric;
  r.value = value;
  r.unit = unit;
  return r;
}

}  // namespace tessera::test
