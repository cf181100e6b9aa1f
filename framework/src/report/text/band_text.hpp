#pragma once
// A prediction's error band as text and JSON (analysis/calibration/error_bands.hpp, docs/report.md "Error
// bands"): "−9 %/+21 %" beside a number, the provenance "(H100/H200, vllm, 23 rows held out)"
// once, and the JSON object next to each predicted latency and throughput.
#include <string>

#include "analysis/calibration/error_bands.hpp"
#include "studies/json/band_json.hpp"  // BandQuantity, band_json
#include "tessera/export.hpp"

namespace tessera {

// "−9 %/+21 %" (a band), else "" (uncalibrated and bound print their status once instead).
TESSERA_API std::string band_short(const Band& b, BandQuantity q);
// "(H100/H200, vllm, 23 rows held out)"; "" for no band.
TESSERA_API std::string band_provenance(const Band& b);
// The whole statement, for a line of its own: "latency −9 %/+21 %, throughput −17 %/+10 % (H100/H200,
// vllm, 23 rows held out, leave-one-source-out)", "uncalibrated: no measurements for this family (...)",
// "bound (no band): latency/overlap is a physical bound ...".
TESSERA_API std::string band_statement(const Band& b);
// " −9 %/+21 %" to append after a number, or "".
TESSERA_API std::string band_suffix(const Band& b, BandQuantity q);

}  // namespace tessera
