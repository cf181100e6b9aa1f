// A prediction's error band as JSON: band_json.hpp.
#include "studies/json/band_json.hpp"

#include <cmath>

#include "studies/json/json_number.hpp"

namespace tessera {

double band_low_rel(const Band& b, BandQuantity q) {
  return q == BandQuantity::latency ? b.latency_low_rel() : b.throughput_low_rel();
}

double band_high_rel(const Band& b, BandQuantity q) {
  return q == BandQuantity::latency ? b.latency_high_rel() : b.throughput_high_rel();
}

nlohmann::json band_json(const Band& b, BandQuantity q, double value) {
  if (!b.has_band())
    return {{"status", b.status == Band::Status::bound ? "bound" : "uncalibrated"}, {"reason", b.reason}};
  const double lo = band_low_rel(b, q), hi = band_high_rel(b, q);
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
