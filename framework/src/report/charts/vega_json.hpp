#pragma once
// Small readers of a `--json` result shared by the chart builders (vega_specs.cpp and the
// *_charts.cpp of each study): a missing or mistyped field reads as null / empty, never throws,
// so a chart of an older or partial result draws what it has.
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

namespace tessera::vega {

inline constexpr const char* kSchema = "https://vega.github.io/schema/vega-lite/v5.json";

inline const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  static const nlohmann::json kNull;
  if (!j.is_object()) return kNull;
  const auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

inline const nlohmann::json& array_field(const nlohmann::json& j, const char* key) {
  static const nlohmann::json kEmpty = nlohmann::json::array();
  const nlohmann::json& v = field(j, key);
  return v.is_array() ? v : kEmpty;
}

inline std::string text_of(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "";
  return v.dump();
}

// " b=64" — and " k=3" when the point drafts (speculative decoding's draft_tokens) — of a serving
// point's JSON record.
inline std::string serve_point_suffix(const nlohmann::json& p) {
  std::string s = " b=" + text_of(field(p, "batch"));
  if (field(p, "draft_tokens").is_number()) s += " k=" + text_of(field(p, "draft_tokens"));
  return s;
}

// "cp=8 tp=4 pp=1 dp=1 ep=1 kv=split ffn=TP" from a configuration's knobs.
inline std::string config_label(const nlohmann::json& c) {
  std::string s;
  for (const char* k : {"cp", "tp", "pp", "dp", "ep"}) {
    if (!s.empty()) s += ' ';
    s += std::string(k) + "=" + text_of(field(c, k));
  }
  if (field(c, "kv_shard_mode").is_string()) s += " kv=" + text_of(field(c, "kv_shard_mode"));
  if (field(c, "ffn_shard_scope").is_string()) s += " ffn=" + text_of(field(c, "ffn_shard_scope"));
  return s;
}

// A number to 4 significant digits ("" when `v` is not a number).
inline std::string short_number(const nlohmann::json& v) {
  if (!v.is_number()) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v.get<double>());
  return buf;
}

// A tooltip entry: a quantitative field shown to 4 significant digits.
inline nlohmann::json number_tip(const std::string& f, const std::string& title) {
  return {{"field", f}, {"type", "quantitative"}, {"title", title}, {"format", ".4~g"}};
}

// A quantitative position channel on a log scale (objectives, ranks and measurements span decades).
inline nlohmann::json log_axis(const std::string& f, const std::string& title) {
  return {{"field", f}, {"type", "quantitative"}, {"title", title}, {"scale", {{"type", "log"}}}};
}

inline nlohmann::json text_tip(const std::string& f, const std::string& title) {
  return {{"field", f}, {"type", "nominal"}, {"title", title}};
}

// A chart of `layers` over the rows `values`, `width` x `height` pixels.
inline nlohmann::json layered(nlohmann::json values, nlohmann::json layers, int width, int height) {
  return {{"$schema", kSchema},
          {"width", width},
          {"height", height},
          {"data", {{"values", std::move(values)}}},
          {"layer", std::move(layers)}};
}

}  // namespace tessera::vega
