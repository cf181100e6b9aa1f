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

// What the knob charts and the tornado plot: a step study's latency, a serve study's best
// tokens/s/PE within the SLO.
struct SensitivityMeasure {
  const char* key;   // the row's field and, in `tessera sensitivity --json`, the value's key
  const char* axis;  // the y axis's title
  const char* tip;   // the tooltip's
  const char* word;  // what the elasticity is of
};
constexpr SensitivityMeasure kSensitivityLatency{"latency_s", "latency (s, log)", "latency (s)", "latency"};
constexpr SensitivityMeasure kSensitivityTokens{"tokens_per_s_per_pe", "tokens/s/PE within the SLO (log)",
                                                "tokens/s/PE", "tokens/s/PE"};

const SensitivityMeasure& sensitivity_measure_of(const json& result) {
  return text_of(field(result, "mode")) == "serve" ? kSensitivityTokens : kSensitivityLatency;
}

// One row per (knob, value): the best configuration with that knob changed.
json knob_rows(const json& result) {
  const SensitivityMeasure& m = sensitivity_measure_of(result);
  const json& best = field(result, "best");
  json rows = json::array();
  for (const json& sweep : array_field(result, "parallelism")) {
    const std::string knob = text_of(field(sweep, "knob"));
    std::size_t order = 0;
    for (const json& v : array_field(sweep, "values")) {
      json config = best.is_object() ? best : json::object();
      config[knob] = field(v, "value");
      const bool feasible = field(v, "feasible").is_boolean() && field(v, "feasible").get<bool>();
      const json& if_fit = &m == &kSensitivityLatency ? field(v, "latency_if_it_fit_s") : json();
      std::string status = feasible ? "feasible" : "infeasible";
      if (!feasible && if_fit.is_number()) status = "infeasible (latency if it fit)";
      rows.push_back({{"knob", knob},
                      {"value", text_of(field(v, "value"))},
                      {"order", order++},
                      {"baseline", field(v, "value") == field(sweep, "baseline")},
                      {"config", vega::config_label(config)},
                      {m.key, feasible ? field(v, m.key) : if_fit},
                      {"status", status},
                      {"reason", text_of(field(v, "reason"))}});
    }
  }
  return rows;
}

json knob_spec(json rows, const SensitivityMeasure& m) {
  const std::vector<std::string>& p = okabe_ito();
  const std::string key = m.key;
  // Only the layers that have rows (a layer that draws nothing would fail the browser test).
  bool feasible = false, infeasible_fit = false, infeasible_invalid = false, baseline = false;
  for (const json& r : rows) {
    const bool f = r["status"] == "feasible";
    feasible = feasible || f;
    baseline = baseline || (f && r["baseline"] == true);
    infeasible_fit = infeasible_fit || (!f && r[key].is_number());
    infeasible_invalid = infeasible_invalid || (!f && !r[key].is_number());
  }
  const json x = {{"field", "value"},
                  {"type", "ordinal"},
                  {"title", "value"},
                  {"sort", {{"field", "order"}, {"op", "min"}}},
                  {"axis", {{"labelAngle", 0}}}};
  const json y = vega::log_axis(key, m.axis);
  const json tooltip =
      json::array({text_tip("config", "configuration"), text_tip("knob", "knob"), text_tip("value", "value"),
                   number_tip(key, m.tip), text_tip("status", "status"), text_tip("reason", "reason")});
  json layers = json::array();
  if (feasible)
    layers.push_back(
        {{"transform", json::array({{{"filter", "datum.status == 'feasible'"}}})},
         {"mark", {{"type", "line"}, {"color", p[4]}, {"point", {{"filled", true}, {"size", 50}}}}},
         {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  // Infeasible with a latency if it fit: hollow vermillion crosses at that latency.
  if (infeasible_fit)
    layers.push_back(
        {{"transform",
          json::array({{{"filter", "datum.status != 'feasible' && isValid(datum." + key + ")"}}})},
         {"mark", {{"type", "point"}, {"shape", "cross"}, {"size", 90}, {"color", p[5]}, {"filled", true}}},
         {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  // Infeasible with no latency (the layout is invalid): crosses along the bottom edge.
  if (infeasible_invalid)
    layers.push_back(
        {{"transform",
          json::array({{{"filter", "datum.status != 'feasible' && !isValid(datum." + key + ")"}}})},
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

json tornado_spec(const json& hardware, bool serve) {
  const std::vector<std::string>& p = okabe_ito();
  const SensitivityMeasure& m = serve ? kSensitivityTokens : kSensitivityLatency;
  // A step study's latencies (latency_minus_fixed_s), a serve study's tokens/s/PE
  // (tokens_per_s_per_pe_minus_fixed).
  const auto key = [&](const char* side, const char* kind) {
    return serve ? std::string("tokens_per_s_per_pe_") + side + "_" + kind
                 : std::string("latency_") + side + "_" + kind + "_s";
  };
  json rows = json::array();
  for (const json& h : hardware) {
    for (const auto& [kind, el, which] :
         {std::tuple{"parallelism fixed", "elasticity_fixed", "fixed"},
          std::tuple{"re-optimised", "elasticity_reoptimised", "reoptimised"}}) {
      if (!field(h, el).is_number()) continue;
      rows.push_back({{"knob", text_of(field(h, "label")).empty() ? field(h, "knob") : field(h, "label")},
                      {"path", field(h, "knob")},
                      {"rank", field(h, "rank")},
                      {"kind", kind},
                      {"elasticity", field(h, el)},
                      {"latency_minus_s", field(h, key("minus", which).c_str())},
                      {"latency_plus_s", field(h, key("plus", which).c_str())},
                      {"note", text_of(field(h, "note"))}});
    }
  }
  const std::string word = m.word;
  return vega::ranked_bars(
      560, 14, std::move(rows), vega::ranked_band("knob", "rank", 300),
      {{"field", "elasticity"},
       {"type", "quantitative"},
       {"title", "elasticity d ln(" + word + ") / d ln(knob)"}},
      {{"yOffset", {{"field", "kind"}}},
       {"color",
        {{"field", "kind"},
         {"type", "nominal"},
         {"title", "parallelism"},
         {"scale", {{"domain", {"parallelism fixed", "re-optimised"}}, {"range", {p[4], p[0]}}}}}},
       {"tooltip",
        json::array({text_tip("knob", "knob"), text_tip("path", "path"), text_tip("kind", "parallelism"),
                     number_tip("elasticity", "elasticity"),
                     number_tip("latency_minus_s", std::string(m.tip) + " at -10 %" + (serve ? "" : " (s)")),
                     number_tip("latency_plus_s", std::string(m.tip) + " at +10 %" + (serve ? "" : " (s)")),
                     text_tip("note", "note")})}});
}

std::vector<ChartSpec> sensitivity_charts(const json& result) {
  std::vector<ChartSpec> charts;
  const SensitivityMeasure& m = sensitivity_measure_of(result);
  const bool serve = &m == &kSensitivityTokens;
  json rows = knob_rows(result);
  if (!rows.empty())
    charts.push_back(
        {"knobs", "Parallelism sensitivity",
         "One knob varied at a time from the best configuration " +
             vega::config_label(field(result, "best")) +
             (serve ? " (black diamond): the best tokens/s/PE within the SLO over the scenario's serving "
                      "points. Vermillion crosses along the bottom edge: values with no point within the "
                      "SLO (hover for the reason). Log axes."
                    : " (black diamond). Vermillion crosses: infeasible values (hover for the reason); at "
                      "the latency the configuration would have if it fit memory, or along the bottom edge "
                      "when its layout is invalid. Log latency axes."),
         knob_spec(std::move(rows), m)});
  if (!array_field(result, "hardware").empty())
    charts.push_back(
        {"tornado", "Hardware sensitivity",
         serve ? "Elasticity of the best tokens/s/PE within the SLO to each hardware knob and serving "
                 "parameter (central difference, +/-10 %), with the best point fixed and re-optimised (a "
                 "new serving study), ranked by |elasticity|. Positive: more of the knob, more tokens/s/PE."
               : "Elasticity of the latency to each hardware knob (central difference, +/-10 %), with the "
                 "parallelism fixed and re-optimised, ranked by |elasticity|. Negative: more of the knob, "
                 "less latency.",
         tornado_spec(array_field(result, "hardware"), serve), false});
  return charts;
}

}  // namespace tessera
