// `tessera validate-data --json` as charts: predicted vs measured on log axes (every mapped
// row under every latency model, y = x drawn), and the median APE per source and metric family
// (the metric up to its first ':': kernel_latency, op_latency, ttft, tpot, ...).
#include <algorithm>

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_specs.hpp"

namespace tessera {
namespace {

using nlohmann::json;
using vega::array_field;
using vega::field;
using vega::number_tip;
using vega::text_of;
using vega::text_tip;

std::string family_of(const std::string& metric) { return metric.substr(0, metric.find(':')); }

json validation_rows(const json& result, double& lo, double& hi) {
  json rows = json::array();
  for (const json& m : array_field(result, "models")) {
    const std::string latency = text_of(field(m, "latency"));
    const json& by_source = field(field(m, "summary"), "by_source");
    for (const json& r : array_field(m, "rows")) {
      const json& measured = field(r, "measured");
      const json& predicted = field(r, "predicted");
      if (!measured.is_number() || !predicted.is_number()) continue;
      const double a = measured.get<double>(), b = predicted.get<double>();
      if (a > 0 && b > 0) lo = std::min({lo, a, b}), hi = std::max({hi, a, b});
      const std::string source = text_of(field(r, "source"));
      const std::string label = text_of(field(field(by_source, source.c_str()), "label"));
      rows.push_back({{"latency", latency},
                      {"id", field(r, "id")},
                      {"source", label.empty() ? source : label},
                      {"metric", field(r, "metric")},
                      {"family", family_of(text_of(field(r, "metric")))},
                      {"unit", field(r, "unit")},
                      {"measured", measured},
                      {"predicted", predicted},
                      {"ape", field(r, "ape")}});
    }
  }
  return rows;
}

json scatter_spec(const json& rows, double lo, double hi) {
  const json x = vega::log_axis("measured", "measured (the row's unit, log)");
  const json y = vega::log_axis("predicted", "predicted (log)");
  json layers = json::array();
  if (lo < hi)
    layers.push_back({{"data",
                       {{"values", json::array({{{"measured", lo}, {"predicted", lo}},
                                                {{"measured", hi}, {"predicted", hi}}})}}},
                      {"mark", {{"type", "line"}, {"color", "#999999"}, {"strokeDash", {4, 4}}}},
                      {"encoding", {{"x", x}, {"y", y}}}});
  layers.push_back(
      {{"data", {{"values", rows}}},
       {"transform", json::array({{{"filter", "datum.measured > 0 && datum.predicted > 0"}}})},
       {"mark", {{"type", "point"}, {"filled", true}, {"size", 34}, {"opacity", 0.7}}},
       {"encoding",
        {{"x", x},
         {"y", y},
         {"color",
          {{"field", "latency"},
           {"type", "nominal"},
           {"title", "latency model"},
           {"scale", {{"range", okabe_ito()}}}}},
         {"shape", {{"field", "family"}, {"type", "nominal"}, {"title", "metric family"}}},
         {"tooltip",
          json::array(
              {text_tip("id", "row"),
               text_tip("source", "source"),
               text_tip("metric", "metric"),
               text_tip("latency", "latency model"),
               number_tip("measured", "measured"),
               number_tip("predicted", "predicted"),
               text_tip("unit", "unit"),
               {{"field", "ape"}, {"type", "quantitative"}, {"title", "APE"}, {"format", ".1%"}}})}}}});
  return {{"$schema", vega::kSchema}, {"width", 560}, {"height", 460}, {"layer", std::move(layers)}};
}

json error_spec(json rows) {
  const json aggregate = {
      {"aggregate", json::array({{{"op", "median"}, {"field", "ape"}, {"as", "median_ape"}},
                                 {{"op", "count"}, {"as", "n"}}})},
      {"groupby", {"latency", "source", "family"}}};
  return {
      {"$schema", vega::kSchema},
      {"data", {{"values", std::move(rows)}}},
      {"transform", json::array({aggregate})},
      {"facet", {{"column", {{"field", "latency"}, {"type", "nominal"}, {"title", "latency model"}}}}},
      {"spec",
       {{"width", 220},
        {"height", {{"step", 12}}},
        {"mark", {{"type", "bar"}}},
        {"encoding",
         {{"y",
           {{"field", "source"}, {"type", "nominal"}, {"title", nullptr}, {"axis", {{"labelLimit", 260}}}}},
          {"yOffset", {{"field", "family"}}},
          {"x",
           {{"field", "median_ape"},
            {"type", "quantitative"},
            {"title", "median APE"},
            {"axis", {{"format", "%"}}}}},
          {"color",
           {{"field", "family"},
            {"type", "nominal"},
            {"title", "metric family"},
            {"scale", {{"range", okabe_ito()}}}}},
          {"tooltip", json::array({text_tip("latency", "latency model"),
                                   text_tip("source", "source"),
                                   text_tip("family", "metric family"),
                                   number_tip("n", "rows"),
                                   {{"field", "median_ape"},
                                    {"type", "quantitative"},
                                    {"title", "median APE"},
                                    {"format", ".1%"}}})}}}}}};
}

}  // namespace

std::vector<ChartSpec> validation_charts(const json& result) {
  double lo = 1e300, hi = 0;
  json rows = validation_rows(result, lo, hi);
  if (rows.empty()) return {};
  std::vector<ChartSpec> charts;
  charts.push_back(
      {"predicted", "Predicted vs measured",
       "Every mapped row under every latency model; dashed: predicted = measured. Log axes; each "
       "row in its own unit (ms, s, tokens/s).",
       scatter_spec(rows, lo, hi), false});
  charts.push_back(
      {"errors", "Error per source and metric family",
       "Median absolute percentage error |predicted - measured| / measured of each source's rows, "
       "per metric family (the metric up to ':').",
       error_spec(std::move(rows)), false});
  return charts;
}

}  // namespace tessera
