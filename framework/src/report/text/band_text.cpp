// A prediction's error band as text and JSON (report/text/band_text.hpp).
#include "report/text/band_text.hpp"

#include <cmath>

#include "host/plugin_defaults.hpp"
#include "studies/json/json_number.hpp"

namespace tessera {

namespace {

// "−9 %" / "+21 %": whole percent, a true minus sign; a bound under 0.5 % prints "±0 %".
std::string signed_percent(double rel) {
  const long v = std::lround(std::fabs(rel) * 100);
  if (v == 0) return "±0 %";
  return std::string(rel < 0 ? "\u2212" : "+") + std::to_string(v) + " %";
}

}  // namespace

std::string band_short(const Band& b, BandQuantity q) {
  if (!b.has_band()) return "";
  return signed_percent(band_low_rel(b, q)) + "/" + signed_percent(band_high_rel(b, q));
}

std::string band_suffix(const Band& b, BandQuantity q) { return b.has_band() ? " " + band_short(b, q) : ""; }

std::string band_provenance(const Band& b) {
  if (!b.has_band()) return "";
  std::string s = "(" + b.family + ", " +
                  (b.framework == "*" ? std::string("serving frameworks pooled") : b.framework) + ", " +
                  std::to_string(b.rows) + " rows held out";
  s += b.sources > 1 ? ", " + std::to_string(b.sources) + " sources" : ", 1 source";
  // Rows of another model than the default one are named (a fallback's band, a chosen model's).
  if (b.latency_model != plugin_defaults::kLatency && b.latency_model != "")
    s += ", " + b.latency_model + "'s rows";
  if (!b.note.empty()) s += "; " + b.note;
  return s + ")";
}

std::string band_statement(const Band& b) {
  switch (b.status) {
    case Band::Status::band:
      return "latency " + band_short(b, BandQuantity::latency) + ", throughput " +
             band_short(b, BandQuantity::throughput) + " " + band_provenance(b) + ", " + b.fold;
    case Band::Status::uncalibrated:
      return "uncalibrated: " + b.reason;
    case Band::Status::bound:
      return "bound (no band): " + b.reason;
  }
  return "";
}

}  // namespace tessera
