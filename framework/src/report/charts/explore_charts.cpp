// `tessera explore --json` as charts: the hardware grid as small multiples of heat maps (the
// first two axes across and down, one panel per value of the others), the latency/cost
// frontier of the hardware points, and the hardware tornado at the scenario's machine.
#include <algorithm>
#include <vector>

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_marks.hpp"
#include "report/charts/vega_specs.hpp"

namespace tessera {
namespace {

using nlohmann::json;
using vega::array_field;
using vega::field;
using vega::number_tip;
using vega::short_number;
using vega::text_of;
using vega::text_tip;

// The short name of an axis path: "machine.pe.hbm.bandwidth" -> "pe.hbm.bandwidth".
std::string axis_name(const json& axis) {
  const std::string path = text_of(field(axis, "path"));
  const auto dot = path.find('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// An axis value with its unit, SI-prefixed ("500 GB/s").
std::string axis_value(const json& v, const json& axis) {
  if (!v.is_number()) return text_of(v);
  double x = v.get<double>();
  const char* prefix = "";
  for (const char* p : {"k", "M", "G", "T", "P", "E"}) {
    if (x < 1000 || x != x) break;
    x /= 1000;
    prefix = p;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.4g %s%s", x, prefix, text_of(field(axis, "unit")).c_str());
  return buf;
}

// One row per hardware point: its axis values as labels (h0, h1, panel), the value drawn.
json grid_rows(const json& result, bool serve, const std::string& ranked_key) {
  const json& axes = array_field(result, "axes");
  // Panels in the order of their values (300 GB/s, 600 GB/s, 1.2 TB/s), not of their labels:
  // each later axis's value ranked among the axis's sorted values, the third axis first.
  std::vector<std::vector<double>> sorted(axes.size());
  for (std::size_t a = 0; a < axes.size(); ++a) {
    for (const json& v : array_field(axes[a], "values"))
      if (v.is_number()) sorted[a].push_back(v.get<double>());
    std::sort(sorted[a].begin(), sorted[a].end());
  }
  json rows = json::array();
  std::size_t index = 0;
  for (const json& p : array_field(result, "points")) {
    json row = json::object();
    const json& hw = field(p, "hardware");
    std::string panel, hardware;
    double panel_order = 0;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      const std::string path = text_of(field(axes[a], "path"));
      const std::string label = axis_value(field(hw, path.c_str()), axes[a]);
      hardware += (hardware.empty() ? "" : ", ") + axis_name(axes[a]) + " " + label;
      if (a < 2) {
        row["h" + std::to_string(a)] = label;
        row["h" + std::to_string(a) + "_order"] = field(hw, path.c_str());
      } else {
        panel += (panel.empty() ? "" : ", ") + axis_name(axes[a]) + " " + label;
        const json& v = field(hw, path.c_str());
        const auto rank =
            v.is_number()
                ? std::lower_bound(sorted[a].begin(), sorted[a].end(), v.get<double>()) - sorted[a].begin()
                : 0;
        panel_order = panel_order * static_cast<double>(sorted[a].size() + 1) + static_cast<double>(rank);
      }
    }
    if (axes.size() < 2) row["h1"] = "";
    row["panel"] = panel.empty() ? "the grid" : panel;
    row["panel_order"] = panel_order;
    row["hardware"] = hardware;
    row["point"] = ++index;
    if (serve) {
      const json& agg = field(p, "aggregated");
      row["value"] = ranked_key.empty() ? field(p, "best_tokens_per_s_per_pe")
                                        : field(field(p, "objectives"), ranked_key.c_str());
      row["config"] = "aggregated " + text_of(field(agg, "parallelism")) +
                      " b=" + text_of(field(agg, "batch")) + " on " + text_of(field(agg, "machine"));
      if (field(p, "disaggregated").is_object()) {
        const json& d = field(p, "disaggregated");
        row["config"] = text_of(row["config"]) + "; disaggregated prefill " +
                        text_of(field(field(d, "prefill"), "instances")) + "x " +
                        vega::config_label(field(field(d, "prefill"), "config")) + " + decode " +
                        text_of(field(field(d, "decode"), "instances")) + "x " +
                        vega::config_label(field(field(d, "decode"), "config"));
      }
    } else {
      const json& best = field(p, "best");
      row["value"] = field(best, "latency_s");
      row["cost_USD"] = field(p, "cost_USD");
      row["pareto"] = field(p, "pareto");
      row["config"] = best.is_object() ? vega::config_label(best) : "nothing feasible";
    }
    row["label"] = row["value"].is_number() ? short_number(row["value"]) : "-";
    rows.push_back(std::move(row));
  }
  return rows;
}

json heatmap_spec(json rows, const json& axes, const std::string& value_title, bool higher_is_better) {
  const json x = {{"field", "h0"},
                  {"type", "ordinal"},
                  {"title", axes.size() > 0 ? axis_name(axes[0]) : ""},
                  {"sort", {{"field", "h0_order"}, {"op", "min"}}},
                  {"axis", {{"labelAngle", 0}}}};
  const json y = {{"field", "h1"},
                  {"type", "ordinal"},
                  {"title", axes.size() > 1 ? axis_name(axes[1]) : ""},
                  {"sort", {{"field", "h1_order"}, {"op", "min"}, {"order", "descending"}}}};
  const json tooltip = json::array({text_tip("config", "configuration"), text_tip("hardware", "hardware"),
                                    number_tip("value", value_title), number_tip("cost_USD", "cost (USD)")});
  json layers = json::array();
  layers.push_back({{"mark", {{"type", "rect"}}},
                    {"encoding",
                     {{"x", x},
                      {"y", y},
                      {"color",
                       {{"field", "value"},
                        {"type", "quantitative"},
                        {"title", value_title},
                        // viridis: perceptually uniform and colour-blind safe
                        {"scale", {{"scheme", "viridis"}, {"reverse", !higher_is_better}, {"type", "log"}}}}},
                      {"tooltip", tooltip}}}});
  layers.push_back(
      {{"mark", {{"type", "text"}, {"fontSize", 10}}},
       {"encoding",
        {{"x", x},
         {"y", y},
         {"text", {{"field", "label"}}},
         {"color", {{"condition", {{"test", "datum.pareto"}, {"value", "#D55E00"}}}, {"value", "#ffffff"}}},
         {"tooltip", tooltip}}}});
  return {{"$schema", vega::kSchema},
          {"data", {{"values", std::move(rows)}}},
          {"facet",
           {{"field", "panel"},
            {"type", "nominal"},
            {"title", nullptr},
            {"sort", {{"field", "panel_order"}, {"op", "min"}}}}},
          {"columns", 3},
          {"spec", {{"width", {{"step", 64}}}, {"height", {{"step", 30}}}, {"layer", std::move(layers)}}}};
}

json cost_frontier_spec(const json& rows) {
  const std::vector<std::string>& p = okabe_ito();
  json drawn = json::array(), frontier = json::array();
  for (const json& r : rows) {
    if (!r["value"].is_number() || !r["cost_USD"].is_number()) continue;
    drawn.push_back(r);
    if (r["pareto"].is_boolean() && r["pareto"].get<bool>()) frontier.push_back(r);
  }
  const json x = {
      {"field", "cost_USD"}, {"type", "quantitative"}, {"title", "cost (USD)"}, {"scale", {{"zero", false}}}};
  const json y = vega::log_axis("value", "best latency (s, log)");
  const json tooltip =
      json::array({text_tip("config", "configuration"), text_tip("hardware", "hardware"),
                   number_tip("value", "latency (s)"), number_tip("cost_USD", "cost (USD)")});
  json layers = json::array();
  layers.push_back({{"data", {{"values", drawn}}},
                    {"mark", {{"type", "point"}, {"filled", true}, {"size", 50}, {"color", p[1]}}},
                    {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  if (!frontier.empty()) {
    layers.push_back({{"data", {{"values", frontier}}},
                      {"mark", {{"type", "line"}, {"color", "#000000"}, {"interpolate", "step-after"}}},
                      {"encoding", {{"x", x}, {"y", y}, {"order", {{"field", "cost_USD"}}}}}});
    layers.push_back({{"data", {{"values", frontier}}},
                      {"mark", vega::frontier_mark()},
                      {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  }
  return {{"$schema", vega::kSchema}, {"width", 640}, {"height", 360}, {"layer", layers}};
}

}  // namespace

std::vector<ChartSpec> explore_charts(const json& result) {
  const bool serve = result_kind(result) == ResultKind::explore_serve;
  const json& axes = array_field(result, "axes");
  // A serve scenario ranked by another objective than tokens/s/PE (cost_per_mtok): the cells
  // coloured by its best within the SLO (the aggregated study's unless `ranked_by` says otherwise).
  const json& objectives = array_field(result, "objectives");
  const json first = serve && !objectives.empty() ? objectives[0] : json();
  const bool other = first.is_object() && text_of(field(first, "name")) != "tokens_per_s_per_pe" &&
                     text_of(field(first, "ranked_by")) != "disaggregated";
  json rows = grid_rows(result, serve, other ? text_of(field(first, "key")) : std::string());
  std::vector<ChartSpec> charts;
  if (rows.empty()) return charts;
  if (!serve && !array_field(result, "pareto").empty())
    charts.push_back(
        {"cost_frontier", "Latency vs cost of the hardware points",
         "Each point: one hardware point's best configuration. Black diamonds and staircase: the "
         "latency/cost frontier.",
         cost_frontier_spec(rows)});
  const std::string title =
      other   ? "best " + text_of(field(first, "name")) + " (" + text_of(field(first, "unit")) + ")"
      : serve ? "best tokens/s/PE"
              : "best latency (s)";
  const bool higher = other ? text_of(field(first, "direction")) == "maximize" : serve;
  charts.insert(charts.begin(),
                {"grid", "The hardware grid",
                 std::string("Each cell: one hardware point, coloured by its ") + title +
                     (other   ? " within the SLO (aggregated study; brighter is better)."
                      : serve ? " (aggregated or disaggregated, the better; brighter is better)."
                              : " (brighter is faster); vermillion numbers: on the latency/cost frontier.") +
                     " One panel per value of the third and later axes.",
                 heatmap_spec(std::move(rows), axes, title, higher)});
  if (!array_field(result, "hardware_sensitivity").empty())
    charts.push_back({"tornado", "Hardware sensitivity at the scenario's machine",
                      "Elasticity of the latency to each hardware knob, parallelism fixed and re-optimised.",
                      tornado_spec(array_field(result, "hardware_sensitivity")), false});
  return charts;
}

}  // namespace tessera
