// `tessera sensitivity --json` as charts: one small chart per parallelism knob and the hardware
// tornado (also explore's `hardware_sensitivity`).
#include <tuple>

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_marks.hpp"
#include "report/charts/vega_specs.hpp"

namespace tessera {
namespace {

using nlohmann::json;
using vega::array_field;
using vega::field;
using vega::number_tip;
using vega::text_of;
using vega::text_tip;

constexpr int kSmallHeight = 150;

// One row per (knob, value): the best configuration with that knob changed.
json knob_rows(const json& result) {
  const json& best = field(result, "best");
  json rows = json::array();
  for (const json& sweep : array_field(result, "parallelism")) {
    const std::string knob = text_of(field(sweep, "knob"));
    std::size_t order = 0;
    for (const json& v : array_field(sweep, "values")) {
      json config = best.is_object() ? best : json::object();
      config[knob] = field(v, "value");
      const bool feasible = field(v, "feasible").is_boolean() && field(v, "feasible").get<bool>();
      const json& if_fit = field(v, "latency_if_it_fit_s");
      std::string status = feasible ? "feasible" : "infeasible";
      if (!feasible && if_fit.is_number()) status = "infeasible (latency if it fit)";
      rows.push_back({{"knob", knob},
                      {"value", text_of(field(v, "value"))},
                      {"order", order++},
                      {"baseline", field(v, "value") == field(sweep, "baseline")},
                      {"config", vega::config_label(config)},
                      {"latency_s", feasible ? field(v, "latency_s") : if_fit},
                      {"status", status},
                      {"reason", text_of(field(v, "reason"))}});
    }
  }
  return rows;
}

json knob_spec(json rows) {
  const std::vector<std::string>& p = okabe_ito();
  // Only the layers that have rows (a layer that draws nothing would fail the browser test).
  bool feasible = false, infeasible_fit = false, infeasible_invalid = false, baseline = false;
  for (const json& r : rows) {
    const bool f = r["status"] == "feasible";
    feasible = feasible || f;
    baseline = baseline || (f && r["baseline"] == true);
    infeasible_fit = infeasible_fit || (!f && r["latency_s"].is_number());
    infeasible_invalid = infeasible_invalid || (!f && !r["latency_s"].is_number());
  }
  const json x = {{"field", "value"},
                  {"type", "ordinal"},
                  {"title", "value"},
                  {"sort", {{"field", "order"}, {"op", "min"}}},
                  {"axis", {{"labelAngle", 0}}}};
  const json y = vega::log_axis("latency_s", "latency (s, log)");
  const json tooltip = json::array({text_tip("config", "configuration"), text_tip("knob", "knob"),
                                    text_tip("value", "value"), number_tip("latency_s", "latency (s)"),
                                    text_tip("status", "status"), text_tip("reason", "reason")});
  json layers = json::array();
  if (feasible)
    layers.push_back(
        {{"transform", json::array({{{"filter", "datum.status == 'feasible'"}}})},
         {"mark", {{"type", "line"}, {"color", p[4]}, {"point", {{"filled", true}, {"size", 50}}}}},
         {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  // Infeasible with a latency if it fit: hollow vermillion crosses at that latency.
  if (infeasible_fit)
    layers.push_back(
        {{"transform", json::array({{{"filter", "datum.status != 'feasible' && isValid(datum.latency_s)"}}})},
         {"mark", {{"type", "point"}, {"shape", "cross"}, {"size", 90}, {"color", p[5]}, {"filled", true}}},
         {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  // Infeasible with no latency (the layout is invalid): crosses along the bottom edge.
  if (infeasible_invalid)
    layers.push_back(
        {{"transform",
          json::array({{{"filter", "datum.status != 'feasible' && !isValid(datum.latency_s)"}}})},
         {"mark", {{"type", "point"}, {"shape", "cross"}, {"size", 90}, {"color", p[5]}, {"filled", true}}},
         {"encoding", {{"x", x}, {"y", {{"value", kSmallHeight - 4}}}, {"tooltip", tooltip}}}});
  // The best configuration's value.
  if (baseline)
    layers.push_back(
        {{"transform", json::array({{{"filter", "datum.baseline && datum.status == 'feasible'"}}})},
         {"mark",
          {{"type", "point"},
           {"shape", "diamond"},
           {"size", 160},
           {"filled", false},
           {"color", "#000000"},
           {"strokeWidth", 2}}},
         {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  return {{"$schema", vega::kSchema},
          {"data", {{"values", std::move(rows)}}},
          {"facet",
           {{"field", "knob"}, {"type", "nominal"}, {"title", nullptr}, {"header", {{"labelFontSize", 13}}}}},
          {"columns", 3},
          {"spec", {{"width", 260}, {"height", kSmallHeight}, {"layer", std::move(layers)}}},
          {"resolve", {{"scale", {{"x", "independent"}, {"y", "independent"}}}}}};
}

}  // namespace

json tornado_spec(const json& hardware) {
  const std::vector<std::string>& p = okabe_ito();
  json rows = json::array();
  for (const json& h : hardware) {
    for (const auto& [kind, key, minus, plus] :
         {std::tuple{"parallelism fixed", "elasticity_fixed", "latency_minus_fixed_s",
                     "latency_plus_fixed_s"},
          std::tuple{"re-optimised", "elasticity_reoptimised", "latency_minus_reoptimised_s",
                     "latency_plus_reoptimised_s"}}) {
      if (!field(h, key).is_number()) continue;
      rows.push_back({{"knob", text_of(field(h, "label")).empty() ? field(h, "knob") : field(h, "label")},
                      {"path", field(h, "knob")},
                      {"rank", field(h, "rank")},
                      {"kind", kind},
                      {"elasticity", field(h, key)},
                      {"latency_minus_s", field(h, minus)},
                      {"latency_plus_s", field(h, plus)},
                      {"note", text_of(field(h, "note"))}});
    }
  }
  return vega::ranked_bars(
      560, 14, std::move(rows), vega::ranked_band("knob", "rank", 300),
      {{"field", "elasticity"}, {"type", "quantitative"}, {"title", "elasticity d ln(latency) / d ln(knob)"}},
      {{"yOffset", {{"field", "kind"}}},
       {"color",
        {{"field", "kind"},
         {"type", "nominal"},
         {"title", "parallelism"},
         {"scale", {{"domain", {"parallelism fixed", "re-optimised"}}, {"range", {p[4], p[0]}}}}}},
       {"tooltip",
        json::array({text_tip("knob", "knob"), text_tip("path", "path"), text_tip("kind", "parallelism"),
                     number_tip("elasticity", "elasticity"),
                     number_tip("latency_minus_s", "latency at -10 % (s)"),
                     number_tip("latency_plus_s", "latency at +10 % (s)"), text_tip("note", "note")})}});
}

std::vector<ChartSpec> sensitivity_charts(const json& result) {
  std::vector<ChartSpec> charts;
  json rows = knob_rows(result);
  if (!rows.empty())
    charts.push_back(
        {"knobs", "Parallelism sensitivity",
         "One knob varied at a time from the best configuration " +
             vega::config_label(field(result, "best")) +
             " (black diamond). Vermillion crosses: infeasible values (hover for the reason); at the "
             "latency the configuration would have if it fit memory, or along the bottom edge when "
             "its layout is invalid. Log latency axes.",
         knob_spec(std::move(rows))});
  if (!array_field(result, "hardware").empty())
    charts.push_back(
        {"tornado", "Hardware sensitivity",
         "Elasticity of the latency to each hardware knob (central difference, +/-10 %), with the "
         "parallelism fixed and re-optimised, ranked by |elasticity|. Negative: more of the knob, "
         "less latency.",
         tornado_spec(array_field(result, "hardware")), false});
  return charts;
}

}  // namespace tessera
