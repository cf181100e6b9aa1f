#pragma once
// A prediction's error band as text and JSON (analysis/error_bands.hpp, docs/report.md "Error
// bands"): "−9 %/+21 %" beside a number, the provenance "(H100/H200, vllm, 23 rows held out)"
// once, and the JSON object next to each predicted latency and throughput.
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/error_bands.hpp"
#include "tessera/export.hpp"

namespace tessera {

enum class BandQuantity { latency, throughput };

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

// {low_s, high_s, low_rel, high_rel, family, framework, fold, rows, sources} for a latency (for a
// throughput low_tok_s, high_tok_s), or {status: "uncalibrated"|"bound", reason}. `value` in SI;
// a non-finite value gives null bounds.
TESSERA_API nlohmann::json band_json(const Band& b, BandQuantity q, double value);
// The band's provenance alone (a document's top-level `band`): {status, low_rel, high_rel (latency),
// family, framework, fold, rows, sources, latency_model, note} or {status, reason}.
TESSERA_API nlohmann::json band_summary_json(const Band& b);

}  // namespace tessera
