#include "report/charts/vega_specs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>

#include "report/charts/capacity_charts.hpp"
#include "report/charts/picked_breakdown.hpp"
#include "report/charts/simulation_charts.hpp"
#include "report/charts/vega_json.hpp"
#include "report/charts/vega_marks.hpp"

namespace tessera {
namespace {

using nlohmann::json;

// The knobs a scatter can be coloured by (points carry each of them).
const char* const kKnobs[] = {
    "tp", "cp", "pp", "dp", "ep", "kv_shard_mode", "ffn_shard_scope", "tp_placement", "cp_placement"};

using vega::array_field;
using vega::config_label;
using vega::disagg_row;
using vega::field;
using vega::kSchema;
using vega::text_of;

json knob_select(const std::string& name, const std::string& label, const std::vector<std::string>& options,
                 const std::string& value) {
  return {{"name", name},
          {"value", value},
          {"bind", {{"input", "select"}, {"options", options}, {"name", label}}}};
}

// Sets a layer's data to `values` without copying them (a braced json initializer copies).
void move_values(json& layer, json& values) { layer["data"]["values"] = std::move(values); }

// The colour of a point: the chosen knob's value, numbers in numeric order.
constexpr const char* kKnobOrder = "isNumber(datum[colour_knob]) ? datum[colour_knob] : 0";
json knob_colour() {
  return {{"field", "knob"},
          {"type", "nominal"},
          {"title", "knob value"},
          {"sort", {{"field", "knob_order"}, {"op", "min"}}},
          {"scale", {{"range", okabe_ito()}}}};
}

// A point of a scatter: the knobs flat, the label, and the given numbers.
json scatter_row(const json& entry, const json& config) {
  json row = json::object();
  for (const char* k : kKnobs) row[k] = field(config, k);
  row["id"] = field(entry, "id");
  row["config"] = config_label(config);
  row["objectives"] = field(entry, "objectives");
  return row;
}

std::string plural(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

json tooltip_fields(const std::vector<std::pair<std::string, std::string>>& numbers) {
  json t = json::array();
  t.push_back({{"field", "config"}, {"type", "nominal"}, {"title", "configuration"}});
  for (const auto& [f, title] : numbers)
    t.push_back({{"field", f}, {"type", "quantitative"}, {"title", title}, {"format", ".4~g"}});
  return t;
}

// The note under a scatter: how many points, and whether they are a sample.
std::string points_note(const json& result, const char* what) {
  const std::size_t shown = array_field(result, "points").size();
  const json& total = field(result, "points_total");
  const bool sampled =
      field(result, "points_sampled").is_boolean() && field(result, "points_sampled").get<bool>();
  if (!field(result, "points").is_array())
    return "This result has no `points` list: only the frontier is drawn.";
  if (sampled)
    return "A seeded random sample of " + std::to_string(shown) + " of the " + text_of(total) + " " + what +
           "s" + " (points_sampled: true, each point sampled: true); the frontier is complete.";
  return "All " + plural(shown, what) + ".";
}

// ---- run -----------------------------------------------------------------------------------

// The best's id as the page's parameters hold it ("" = none; serve without an aggregated best:
// the first disaggregated pair's).
std::string best_id_text(const json& result) {
  json id = field(field(result, "best"), "id");
  const json& pairs = array_field(field(result, "disaggregated"), "frontier");
  if (id.is_null() && !pairs.empty()) id = field(pairs[0], "id");
  return id.is_null() ? "" : id.is_string() ? id.get<std::string>() : id.dump();
}

// The evaluated configurations of a run as the Pareto scatter draws them: each point's knobs,
// label, objectives, latency, PEs and whether it fits memory.
json search_points(const json& result) {
  json points = json::array();
  for (const json& p : array_field(result, "points")) {
    json row = scatter_row(p, p);
    row["config"] = field(p, "config").is_string() ? field(p, "config") : json(config_label(p));
    row["latency_s"] = field(p, "latency_s");
    row["pes"] = field(p, "pes");
    row["feasible"] = field(p, "feasible");
    points.push_back(std::move(row));
  }
  return points;
}

// The Pareto frontier of a run as drawn over the scatter (every frontier point fits).
json search_frontier(const json& result) {
  json frontier = json::array();
  for (const json& p : array_field(result, "pareto")) {
    json row = scatter_row(p, p);
    row["latency_s"] = field(p, "latency_s");
    row["pes"] = field(p, "pes");
    row["feasible"] = true;
    frontier.push_back(std::move(row));
  }
  return frontier;
}

json search_pareto_spec(const json& result) {
  std::vector<std::string> keys, titles;
  for (const json& o : array_field(result, "objectives")) {
    keys.push_back(text_of(field(o, "key")));
    const std::string unit = text_of(field(o, "unit"));
    titles.push_back(text_of(field(o, "name")) + (unit.empty() ? "" : " (" + unit + ")"));
  }
  if (keys.empty()) {
    keys = {"latency_s"};
    titles = {"latency (s)"};
  }
  const std::string x0 = keys[0];
  const std::string y0 = keys.size() > 1 ? keys[1] : keys[0];
  std::vector<std::string> knobs(std::begin(kKnobs), std::end(kKnobs));

  json points = search_points(result);
  json frontier = search_frontier(result);
  const json axes = json::array({{{"calculate", "datum.objectives[x_objective]"}, {"as", "x"}},
                                 {{"calculate", "datum.objectives[y_objective]"}, {"as", "y"}},
                                 {{"calculate", "'' + datum[colour_knob]"}, {"as", "knob"}},
                                 {{"calculate", kKnobOrder}, {"as", "knob_order"}},
                                 {{"filter",
                                   "isValid(datum.x) && isValid(datum.y) && isFinite(datum.x) && "
                                   "isFinite(datum.y) && datum.x > 0 && datum.y > 0"}}});
  const json tooltip = tooltip_fields({{"x", "x"}, {"y", "y"}, {"latency_s", "latency (s)"}, {"pes", "PEs"}});
  // Log axes: objectives span decades (latency, PEs). Each axis is titled with the metric and
  // unit of the objective chosen below (a signal: the title follows the choice); the channel's
  // own title names the first choice.
  const auto titled = [&](const char* f, const std::string& param, const std::string& first) {
    std::string expr;
    for (std::size_t i = keys.size(); i-- > 0;) {
      const std::string t = json(titles[i] + ", log scale").dump();
      expr = expr.empty() ? t : param + " === " + json(keys[i]).dump() + " ? " + t + " : " + expr;
    }
    json a = vega::log_axis(
        f, titles[static_cast<std::size_t>(std::find(keys.begin(), keys.end(), first) - keys.begin())] +
               ", log scale");
    a["axis"] = {{"title", {{"signal", expr}}}};
    return a;
  };
  const json x = titled("x", "x_objective", x0);
  const json y = titled("y", "y_objective", y0);
  json layers = json::array();
  if (!points.empty()) {
    layers.push_back(
        {{"data", {{"values", nullptr}}},
         {"transform", axes},
         {"mark", {{"type", "point"}, {"filled", true}}},
         {"encoding",
          {{"x", x},
           {"y", y},
           {"size", vega::picked_size(36, 150)},
           {"color", knob_colour()},
           {"opacity", {{"condition", {{"test", "datum.feasible"}, {"value", 0.75}}}, {"value", 0.2}}},
           {"tooltip", tooltip}}}});
    move_values(layers.back(), points);  // thousands of rows: moved in, not copied
  }
  if (!frontier.empty())
    layers.push_back(
        {{"data", {{"values", frontier}}},
         {"transform", axes},
         {"mark", vega::frontier_mark()},
         {"encoding", {{"x", x}, {"y", y}, {"size", vega::picked_size(140, 400)}, {"tooltip", tooltip}}}});
  return {{"$schema", kSchema},
          {"width", 640},
          {"height", 400},
          {"params", json::array({knob_select("x_objective", "x axis ", keys, x0),
                                  knob_select("y_objective", "y axis ", keys, y0),
                                  knob_select("colour_knob", "colour by ", knobs, "tp"),
                                  vega::picked_param(best_id_text(result))})},
          {"layer", layers}};
}

// ---- serve ---------------------------------------------------------------------------------

// Two frontier layers (line + points) of tokens/s/user vs tokens/s/PE rows.
void frontier_layers(json& layers, const json& rows, const std::string& colour, const std::string& shape,
                     const json& tooltip) {
  if (rows.empty()) return;
  layers.push_back(
      {{"data", {{"values", rows}}},
       {"mark", {{"type", "line"}, {"color", colour}, {"strokeWidth", 2}, {"interpolate", "step-before"}}},
       {"encoding",
        {{"x", {{"field", "tokens_per_s_per_user"}, {"type", "quantitative"}}},
         {"y", {{"field", "tokens_per_s_per_pe"}, {"type", "quantitative"}}},
         {"order", {{"field", "tokens_per_s_per_user"}}}}}});
  layers.push_back({{"data", {{"values", rows}}},
                    {"mark",
                     {{"type", "point"},
                      {"shape", shape},
                      {"filled", true},
                      {"color", colour},
                      {"stroke", "#000000"},
                      {"strokeWidth", 1}}},
                    {"encoding",
                     {{"x", {{"field", "tokens_per_s_per_user"}, {"type", "quantitative"}}},
                      {"y", {{"field", "tokens_per_s_per_pe"}, {"type", "quantitative"}}},
                      {"size", vega::picked_size(90, 300)},
                      {"tooltip", tooltip}}}});
}

json serve_row(const json& r) {
  json row = scatter_row(r, r);
  for (const char* k : {"tokens_per_s_per_user", "tokens_per_s_per_pe", "ttft_s", "tpot_s", "pes", "batch"})
    row[k] = field(r, k);
  row["feasible"] = field(r, "feasible");
  return row;
}

// The SLO lines of a serve result: a TPOT limit is a floor on tokens/s/user (1/TPOT), as is
// min_tokens_per_s_per_user. Each a dashed rule with its label (none without an SLO).
void slo_layers(json& layers, const json& result) {
  json slo_rows = json::array();
  const json& slo = field(result, "slo");
  if (field(slo, "tpot_s").is_number() && field(slo, "tpot_s").get<double>() > 0) {
    const double tpot = field(slo, "tpot_s").get<double>();
    char label[64];
    std::snprintf(label, sizeof label, "TPOT SLO %.4g ms", tpot * 1e3);
    slo_rows.push_back({{"x", 1.0 / tpot}, {"label", label}});
  }
  if (field(slo, "min_tokens_per_s_per_user").is_number()) {
    const double v = field(slo, "min_tokens_per_s_per_user").get<double>();
    char label[64];
    std::snprintf(label, sizeof label, "SLO %.4g tokens/s/user", v);
    slo_rows.push_back({{"x", v}, {"label", label}});
  }
  if (!slo_rows.empty()) {
    layers.push_back({{"data", {{"values", slo_rows}}},
                      {"mark", {{"type", "rule"}, {"color", okabe_ito()[5]}, {"strokeDash", {6, 4}}}},
                      {"encoding", {{"x", {{"field", "x"}, {"type", "quantitative"}}}}}});
    layers.push_back(
        {{"data", {{"values", slo_rows}}},
         {"mark", {{"type", "text"}, {"align", "left"}, {"dx", 4}, {"baseline", "top"}, {"y", 4}}},
         {"encoding", {{"x", {{"field", "x"}, {"type", "quantitative"}}}, {"text", {{"field", "label"}}}}}});
  }
}

json serve_scatter_spec(const json& result) {
  std::vector<std::string> knobs(std::begin(kKnobs), std::end(kKnobs));
  knobs.insert(knobs.begin(), "batch");
  const json tooltip = tooltip_fields({{"tokens_per_s_per_user", "tokens/s/user"},
                                       {"tokens_per_s_per_pe", "tokens/s/PE"},
                                       {"ttft_s", "TTFT (s)"},
                                       {"tpot_s", "TPOT (s)"},
                                       {"pes", "PEs"}});
  json points = json::array();
  for (const json& p : array_field(result, "points")) {
    json row = serve_row(p);
    if (field(p, "config").is_string()) row["config"] = field(p, "config");
    row["config"] = text_of(row["config"]) + vega::serve_point_suffix(p);
    points.push_back(std::move(row));
  }
  json aggregated = json::array();
  for (const json& r : array_field(result, "frontier")) {
    json row = serve_row(r);
    row["config"] = text_of(row["config"]) + vega::serve_point_suffix(r);
    aggregated.push_back(std::move(row));
  }
  json disaggregated = json::array();
  for (const json& r : array_field(field(result, "disaggregated"), "frontier"))
    disaggregated.push_back(disagg_row(r));

  const json x = {{"field", "tokens_per_s_per_user"},
                  {"type", "quantitative"},
                  {"title", "tokens/s/user (1 / TPOT)"},
                  {"scale", {{"zero", false}}}};
  const json y = {{"field", "tokens_per_s_per_pe"}, {"type", "quantitative"}, {"title", "tokens/s/PE"}};
  json layers = json::array();
  if (!points.empty()) {
    layers.push_back(
        {{"data", {{"values", nullptr}}},
         {"transform", json::array({{{"calculate", "'' + datum[colour_knob]"}, {"as", "knob"}},
                                    {{"calculate", kKnobOrder}, {"as", "knob_order"}},
                                    {{"filter",
                                      "isValid(datum.tokens_per_s_per_user) && "
                                      "isValid(datum.tokens_per_s_per_pe)"}}})},
         {"mark", {{"type", "point"}, {"filled", true}}},
         {"encoding",
          {{"x", x},
           {"y", y},
           {"size", vega::picked_size(30, 150)},
           {"color", knob_colour()},
           {"opacity", {{"condition", {{"test", "datum.feasible"}, {"value", 0.7}}}, {"value", 0.15}}},
           {"tooltip", tooltip}}}});
    move_values(layers.back(), points);  // thousands of rows: moved in, not copied
  }
  frontier_layers(layers, aggregated, "#000000", "diamond", tooltip);
  frontier_layers(layers, disaggregated, okabe_ito()[5], "square", tooltip);
  slo_layers(layers, result);
  return {{"$schema", kSchema},
          {"width", 640},
          {"height", 400},
          {"params", json::array({knob_select("colour_knob", "colour by ", knobs, "tp"),
                                  vega::picked_param(best_id_text(result))})},
          {"layer", layers}};
}

}  // namespace

const std::vector<std::string>& okabe_ito() {
  static const std::vector<std::string> kPalette = {"#E69F00", "#56B4E9", "#009E73", "#F0E442",
                                                    "#0072B2", "#D55E00", "#CC79A7", "#000000"};
  return kPalette;
}

bool is_serve_result(const json& result) {
  return text_of(field(field(result, "workload"), "mode")) == "serve";
}

ResultKind result_kind(const json& result) {
  if (is_serve_result(result)) return ResultKind::serve;
  if (field(result, "kendall").is_array()) return ResultKind::compare;
  if (field(result, "models").is_array() && !field(result, "scenario").is_string())
    return ResultKind::validate_data;
  if (field(result, "axes").is_array())
    return text_of(field(result, "mode")) == "serve" ? ResultKind::explore_serve : ResultKind::explore;
  if (field(result, "parallelism").is_array() || field(result, "hardware").is_array())
    return ResultKind::sensitivity;
  if (field(result, "stages").is_array() && field(result, "totals").is_object()) return ResultKind::explain;
  return ResultKind::run;
}

const char* result_kind_command(ResultKind kind) {
  switch (kind) {
    case ResultKind::serve:
      return "tessera serve";
    case ResultKind::explain:
      return "tessera explain";
    case ResultKind::sensitivity:
      return "tessera sensitivity";
    case ResultKind::explore:
    case ResultKind::explore_serve:
      return "tessera explore";
    case ResultKind::compare:
      return "tessera compare";
    case ResultKind::validate_data:
      return "tessera validate-data";
    case ResultKind::run:
      break;
  }
  return "tessera run";
}

namespace {

std::vector<ChartSpec> charts_of_kind(const json& result) {
  switch (result_kind(result)) {
    case ResultKind::serve:
      return serve_charts(result);
    case ResultKind::explain:
      return explain_charts(result);
    case ResultKind::sensitivity:
      return sensitivity_charts(result);
    case ResultKind::explore:
    case ResultKind::explore_serve:
      return explore_charts(result);
    case ResultKind::compare:
      return compare_charts(result);
    case ResultKind::validate_data:
      return validation_charts(result);
    case ResultKind::run:
      break;
  }
  return search_charts(result);
}

}  // namespace

std::vector<ChartSpec> report_charts(const json& result) {
  const json& by_scope = field(result, "by_scope");
  if (!by_scope.is_object() || by_scope.empty()) return charts_of_kind(result);
  std::vector<ChartSpec> out;
  const auto add = [&](const json& doc, const std::string& scope) {
    for (ChartSpec& c : charts_of_kind(doc)) {
      c.id = scope + "-" + c.id;
      if (!c.picks_from.empty()) c.picks_from = scope + "-" + c.picks_from;
      c.title += " (scope " + scope + ")";
      c.scope = scope;
      out.push_back(std::move(c));
    }
  };
  add(result, text_of(field(result, "scope")).empty() ? "full" : text_of(field(result, "scope")));
  for (const auto& [scope, doc] : by_scope.items()) add(doc, scope);
  return out;
}

std::vector<ChartSpec> search_charts(const json& result) {
  std::vector<ChartSpec> charts;
  charts.push_back({"pareto", "Pareto frontier",
                    points_note(result, "valid configuration") +
                        " Black diamonds: the frontier over every objective; faded: does not fit memory. "
                        "Log axes: values at or below zero are not drawn.",
                    search_pareto_spec(result)});
  if (auto b = search_breakdown_chart(result)) charts.push_back(std::move(*b));
  return charts;
}

std::vector<ChartSpec> serve_charts(const json& result) {
  std::string note = points_note(result, "runnable serving point") +
                     " Faded: outside the SLO. Black diamonds: the aggregated frontier within the SLO";
  if (!array_field(field(result, "disaggregated"), "frontier").empty())
    note += "; vermillion squares: the disaggregated frontier (prefill and decode pools)";
  note += ". Dashed: the SLO.";
  std::vector<ChartSpec> charts;
  charts.push_back({"frontier", "Throughput per PE vs per user", note, serve_scatter_spec(result)});
  if (auto b = serve_breakdown_chart(result)) charts.push_back(std::move(*b));
  for (ChartSpec& c : simulation_charts(result)) charts.push_back(std::move(c));  // serving.requests
  for (ChartSpec& c : capacity_charts(result)) charts.push_back(std::move(c));    // --simulate-top
  return charts;
}

}  // namespace tessera
