#pragma once
// A prediction's error band as JSON (analysis/calibration/error_bands.hpp, docs/report.md "Error bands"): the
// object next to each predicted latency and throughput, and a document's top-level `band`.
#include <nlohmann/json.hpp>

#include "analysis/calibration/error_bands.hpp"
#include "tessera/export.hpp"

namespace tessera {

enum class BandQuantity { latency, throughput };

// The band's low and high bound relative to the value, of a latency or a throughput.
TESSERA_API double band_low_rel(const Band& b, BandQuantity q);
TESSERA_API double band_high_rel(const Band& b, BandQuantity q);

// {low_s, high_s, low_rel, high_rel, family, framework, fold, rows, sources} for a latency (for a
// throughput low_tok_s, high_tok_s), or {status: "uncalibrated"|"bound", reason}. `value` in SI;
// a non-finite value gives null bounds.
TESSERA_API nlohmann::json band_json(const Band& b, BandQuantity q, double value);
// The band's provenance alone (a document's top-level `band`): {status, low_rel, high_rel (latency),
// family, framework, fold, rows, sources, latency_model, note} or {status, reason}.
TESSERA_API nlohmann::json band_summary_json(const Band& b);

}  // namespace tessera
