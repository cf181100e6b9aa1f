#include "report/vega_specs.hpp"

#include <cmath>
#include <cstdio>

#include "report/vega_json.hpp"

namespace tessera {
namespace {

using nlohmann::json;

// The knobs a scatter can be coloured by (points carry each of them).
const char* const kKnobs[] = {
    "tp", "cp", "pp", "dp", "ep", "kv_shard_mode", "ffn_shard_scope", "tp_placement", "cp_placement"};

using vega::array_field;
using vega::config_label;
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

json search_pareto_spec(const json& result) {
  std::vector<std::string> keys, titles;
  for (const json& o : array_field(result, "objectives")) {
    keys.push_back(text_of(field(o, "key")));
    titles.push_back(text_of(field(o, "name")));
  }
  if (keys.empty()) keys = {"latency_s"};
  const std::string x0 = keys[0];
  const std::string y0 = keys.size() > 1 ? keys[1] : keys[0];
  std::vector<std::string> knobs(std::begin(kKnobs), std::end(kKnobs));

  json points = json::array();
  for (const json& p : array_field(result, "points")) {
    json row = scatter_row(p, p);
    row["config"] = field(p, "config").is_string() ? field(p, "config") : json(config_label(p));
    row["latency_s"] = field(p, "latency_s");
    row["pes"] = field(p, "pes");
    row["feasible"] = field(p, "feasible");
    points.push_back(std::move(row));
  }
  json frontier = json::array();
  for (const json& p : array_field(result, "pareto")) {
    json row = scatter_row(p, p);
    row["latency_s"] = field(p, "latency_s");
    row["pes"] = field(p, "pes");
    row["feasible"] = true;
    frontier.push_back(std::move(row));
  }
  const json axes = json::array({{{"calculate", "datum.objectives[x_objective]"}, {"as", "x"}},
                                 {{"calculate", "datum.objectives[y_objective]"}, {"as", "y"}},
                                 {{"calculate", "'' + datum[colour_knob]"}, {"as", "knob"}},
                                 {{"calculate", kKnobOrder}, {"as", "knob_order"}},
                                 {{"filter",
                                   "isValid(datum.x) && isValid(datum.y) && isFinite(datum.x) && "
                                   "isFinite(datum.y) && datum.x > 0 && datum.y > 0"}}});
  const json tooltip = tooltip_fields({{"x", "x"}, {"y", "y"}, {"latency_s", "latency (s)"}, {"pes", "PEs"}});
  // Log axes: objectives span decades (latency, PEs); titles follow the chosen objective.
  const json x = vega::log_axis("x", "x: the objective chosen below (log scale)");
  const json y = vega::log_axis("y", "y: the objective chosen below (log scale)");
  json layers = json::array();
  if (!points.empty()) {
    layers.push_back(
        {{"data", {{"values", nullptr}}},
         {"transform", axes},
         {"mark", {{"type", "point"}, {"filled", true}, {"size", 36}}},
         {"encoding",
          {{"x", x},
           {"y", y},
           {"color", knob_colour()},
           {"opacity", {{"condition", {{"test", "datum.feasible"}, {"value", 0.75}}}, {"value", 0.2}}},
           {"tooltip", tooltip}}}});
    move_values(layers.back(), points);  // thousands of rows: moved in, not copied
  }
  if (!frontier.empty())
    layers.push_back({{"data", {{"values", frontier}}},
                      {"transform", axes},
                      {"mark",
                       {{"type", "point"},
                        {"shape", "diamond"},
                        {"filled", false},
                        {"size", 140},
                        {"strokeWidth", 2},
                        {"color", "#000000"}}},
                      {"encoding", {{"x", x}, {"y", y}, {"tooltip", tooltip}}}});
  return {{"$schema", kSchema},
          {"width", 640},
          {"height", 400},
          {"params", json::array({knob_select("x_objective", "x axis ", keys, x0),
                                  knob_select("y_objective", "y axis ", keys, y0),
                                  knob_select("colour_knob", "colour by ", knobs, "tp")})},
          {"layer", layers}};
}

// Rows of the stacked bars: one per (configuration, stage), time = visible_s × count.
json stage_rows(const json& result) {
  json rows = json::array();
  const json& top = array_field(result, "top");
  for (std::size_t i = 0; i < top.size(); ++i) {
    const std::string label = "#" + std::to_string(i + 1) + "  " + config_label(top[i]);
    std::size_t order = 0;
    for (const json& s : array_field(top[i], "stages")) {
      const json& count = field(s, "count");
      const json& visible = field(s, "visible_s");
      if (!count.is_number() || !visible.is_number()) continue;
      const double c = count.get<double>();
      rows.push_back({{"rank", i + 1},
                      {"config", label},
                      {"stage", field(s, "name")},
                      {"order", order++},
                      {"bound", field(s, "bound")},
                      {"count", c},
                      {"time_s", visible.get<double>() * c},
                      {"compute_s", field(s, "compute_s")},
                      {"memory_s", field(s, "memory_s")},
                      {"comm_s", field(s, "comm_s")}});
    }
  }
  return rows;
}

json search_stage_spec(const json& rows) {
  const std::vector<std::string>& p = okabe_ito();
  return {
      {"$schema", kSchema},
      {"width", 640},
      {"height", {{"step", 20}}},
      {"data", {{"values", rows}}},
      {"mark", {{"type", "bar"}}},
      {"encoding",
       {{"y",
         {{"field", "config"},
          {"type", "nominal"},
          {"title", nullptr},
          {"axis", {{"labelLimit", 420}}},
          {"sort", {{"field", "rank"}, {"op", "min"}}}}},
        {"x",
         {{"field", "time_s"},
          {"type", "quantitative"},
          {"stack", "zero"},
          {"title", "visible time per step (s): stage time x occurrences"}}},
        {"color",
         {{"field", "bound"},
          {"type", "nominal"},
          {"title", "bound by"},
          {"scale",
           {{"domain", {"compute", "memory", "comm", "overhead", "none"}},
            {"range", {p[4], p[0], p[2], p[6], "#999999"}}}}}},
        {"detail", {{"field", "stage"}}},
        {"order", {{"field", "order"}}},
        {"tooltip",
         json::array({{{"field", "config"}, {"title", "configuration"}},
                      {{"field", "stage"}, {"title", "stage"}},
                      {{"field", "bound"}, {"title", "bound by"}},
                      {{"field", "count"}, {"title", "occurrences"}, {"format", ".4~g"}},
                      {{"field", "time_s"}, {"title", "visible time (s)"}, {"format", ".4~g"}},
                      {{"field", "compute_s"}, {"title", "compute (s, each)"}, {"format", ".4~g"}},
                      {{"field", "memory_s"}, {"title", "memory (s, each)"}, {"format", ".4~g"}},
                      {{"field", "comm_s"}, {"title", "communication (s, each)"}, {"format", ".4~g"}}})}}}};
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
                      {"size", 90},
                      {"color", colour},
                      {"stroke", "#000000"},
                      {"strokeWidth", 1}}},
                    {"encoding",
                     {{"x", {{"field", "tokens_per_s_per_user"}, {"type", "quantitative"}}},
                      {"y", {{"field", "tokens_per_s_per_pe"}, {"type", "quantitative"}}},
                      {"tooltip", tooltip}}}});
}

json serve_row(const json& r) {
  json row = scatter_row(r, r);
  for (const char* k : {"tokens_per_s_per_user", "tokens_per_s_per_pe", "ttft_s", "tpot_s", "pes", "batch"})
    row[k] = field(r, k);
  row["feasible"] = field(r, "feasible");
  return row;
}

json disagg_row(const json& pair) {
  const json& pre = field(pair, "prefill");
  const json& dec = field(pair, "decode");
  json row = json::object();
  row["config"] = "prefill " + text_of(field(pre, "instances")) + "x [" + config_label(field(pre, "config")) +
                  " b=" + text_of(field(pre, "batch")) + "] + decode " + text_of(field(dec, "instances")) +
                  "x [" + config_label(field(dec, "config")) + " b=" + text_of(field(dec, "batch")) + "]";
  for (const char* k : {"tokens_per_s_per_user", "tokens_per_s_per_pe", "ttft_s", "tpot_s", "pes"})
    row[k] = field(pair, k);
  return row;
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
    row["config"] = text_of(row["config"]) + " b=" + text_of(field(p, "batch"));
    points.push_back(std::move(row));
  }
  json aggregated = json::array();
  for (const json& r : array_field(result, "frontier")) {
    json row = serve_row(r);
    row["config"] = text_of(row["config"]) + " b=" + text_of(field(r, "batch"));
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
         {"mark", {{"type", "point"}, {"filled", true}, {"size", 30}}},
         {"encoding",
          {{"x", x},
           {"y", y},
           {"color", knob_colour()},
           {"opacity", {{"condition", {{"test", "datum.feasible"}, {"value", 0.7}}}, {"value", 0.15}}},
           {"tooltip", tooltip}}}});
    move_values(layers.back(), points);  // thousands of rows: moved in, not copied
  }
  frontier_layers(layers, aggregated, "#000000", "diamond", tooltip);
  frontier_layers(layers, disaggregated, okabe_ito()[5], "square", tooltip);
  // The SLO lines: a TPOT limit is a floor on tokens/s/user (1/TPOT), as is min_tokens_per_s_per_user.
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
  return {{"$schema", kSchema},
          {"width", 640},
          {"height", 400},
          {"params", json::array({knob_select("colour_knob", "colour by ", knobs, "tp")})},
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
  const json rows = stage_rows(result);
  if (!rows.empty())
    charts.push_back({"stages",
                      "Stage breakdown of the top " + std::to_string(array_field(result, "top").size()),
                      "Each bar is one configuration (#1 = the best), each segment one stage's visible time, "
                      "coloured by what bounds it.",
                      search_stage_spec(rows)});
  return charts;
}

std::vector<ChartSpec> serve_charts(const json& result) {
  std::string note = points_note(result, "runnable serving point") +
                     " Faded: outside the SLO. Black diamonds: the aggregated frontier within the SLO";
  if (!array_field(field(result, "disaggregated"), "frontier").empty())
    note += "; vermillion squares: the disaggregated frontier (prefill and decode pools)";
  note += ". Dashed: the SLO.";
  return {{"frontier", "Throughput per PE vs per user", note, serve_scatter_spec(result)}};
}

}  // namespace tessera
