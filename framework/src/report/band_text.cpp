// A prediction's error band as text and JSON (report/band_text.hpp).
#include "report/band_text.hpp"

#include <cmath>

#include "report/json_number.hpp"

namespace tessera {

namespace {

// "−9 %" / "+21 %": whole percent, a true minus sign; a bound under 0.5 % prints "±0 %".
std::string signed_percent(double rel) {
  const long v = std::lround(std::fabs(rel) * 100);
  if (v == 0) return "±0 %";
  return std::string(rel < 0 ? "\u2212" : "+") + std::to_string(v) + " %";
}

double low_rel(const Band& b, BandQuantity q) {
  return q == BandQuantity::latency ? b.latency_low_rel() : b.throughput_low_rel();
}
double high_rel(const Band& b, BandQuantity q) {
  return q == BandQuantity::latency ? b.latency_high_rel() : b.throughput_high_rel();
}

}  // namespace

std::string band_short(const Band& b, BandQuantity q) {
  if (!b.has_band()) return "";
  return signed_percent(low_rel(b, q)) + "/" + signed_percent(high_rel(b, q));
}

std::string band_suffix(const Band& b, BandQuantity q) { return b.has_band() ? " " + band_short(b, q) : ""; }

std::string band_provenance(const Band& b) {
  if (!b.has_band()) return "";
  std::string s = "(" + b.family + ", " +
                  (b.framework == "*" ? std::string("serving frameworks pooled") : b.framework) + ", " +
                  std::to_string(b.rows) + " rows held out";
  s += b.sources > 1 ? ", " + std::to_string(b.sources) + " sources" : ", 1 source";
  if (b.latency_model != "calibrated" && b.latency_model != "") s += ", " + b.latency_model + "'s rows";
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

nlohmann::json band_json(const Band& b, BandQuantity q, double value) {
  if (!b.has_band())
    return {{"status", b.status == Band::Status::bound ? "bound" : "uncalibrated"}, {"reason", b.reason}};
  const double lo = low_rel(b, q), hi = high_rel(b, q);
  const bool finite = std::isfinite(value);
  const char* low_key = q == BandQuantity::latency ? "low_s" : "low_tok_s";
  const char* high_key = q == BandQuantity::latency ? "high_s" : "high_tok_s";
  return {{low_key, finite ? json_number(value * (1 + lo)) : nlohmann::json(nullptr)},
          {high_key, finite ? json_number(value * (1 + hi)) : nlohmann::json(nullptr)},
          {"low_rel", lo},
          {"high_rel", hi},
          {"family", b.family},
          {"framework", b.framework},
          {"fold", b.fold},
          {"rows", b.rows},
          {"sources", b.sources}};
}

nlohmann::json band_summary_json(const Band& b) {
  if (!b.has_band())
    return {{"status", b.status == Band::Status::bound ? "bound" : "uncalibrated"}, {"reason", b.reason}};
  nlohmann::json j = {{"status", "band"},
                      {"latency_model", b.latency_model},
                      {"family", b.family},
                      {"framework", b.framework},
                      {"fold", b.fold},
                      {"rows", b.rows},
                      {"sources", b.sources},
                      {"p10_ln", b.p10_ln},
                      {"p90_ln", b.p90_ln},
                      {"latency_low_rel", b.latency_low_rel()},
                      {"latency_high_rel", b.latency_high_rel()},
                      {"throughput_low_rel", b.throughput_low_rel()},
                      {"throughput_high_rel", b.throughput_high_rel()}};
  if (!b.note.empty()) j["note"] = b.note;
  return j;
}

}  // namespace tessera
