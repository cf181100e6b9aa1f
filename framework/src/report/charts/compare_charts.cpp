// `tessera compare --json` as charts: the optima's latency under every model side by side,
// rank vs rank over the feasible configurations (`points`) for a chosen pair of models with
// its Kendall tau-b, and the pairs whose winner changes.
#include "report/charts/vega_json.hpp"
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

std::vector<std::string> model_names(const json& result) {
  std::vector<std::string> out;
  for (const json& m : array_field(result, "models")) out.push_back(text_of(m));
  return out;
}

std::string joined(const json& list) {
  std::string s;
  for (const json& v : list.is_array() ? list : json::array()) s += (s.empty() ? "" : ", ") + text_of(v);
  return s;
}

json latency_spec(const json& result) {
  json rows = json::array();
  for (const json& o : array_field(result, "stages")) {
    const std::string config = vega::config_label(field(o, "config"));
    const std::string owner = "optimum of " + joined(field(o, "optimum_of"));
    const json& by_model = field(o, "by_model");
    if (!by_model.is_object()) continue;
    for (const auto& [model, v] : by_model.items())
      rows.push_back({{"optimum", owner},
                      {"config", config},
                      {"model", model},
                      {"latency_s", field(v, "latency_s")},
                      {"rank", field(v, "rank")}});
  }
  return {
      {"$schema", vega::kSchema},
      {"width", 600},
      {"height", {{"step", 16}}},
      {"data", {{"values", std::move(rows)}}},
      {"mark", {{"type", "bar"}}},
      {"encoding",
       {{"y",
         {{"field", "optimum"}, {"type", "nominal"}, {"title", nullptr}, {"axis", {{"labelLimit", 320}}}}},
        {"yOffset", {{"field", "model"}}},
        {"x", {{"field", "latency_s"}, {"type", "quantitative"}, {"title", "latency (s)"}}},
        {"color",
         {{"field", "model"},
          {"type", "nominal"},
          {"title", "latency model"},
          {"scale", {{"range", okabe_ito()}}}}},
        {"tooltip",
         json::array({text_tip("config", "configuration"), text_tip("model", "latency model"),
                      number_tip("latency_s", "latency (s)"), number_tip("rank", "rank under it")})}}}};
}

json rank_spec(const json& result, const std::vector<std::string>& models) {
  json rows = json::array();
  for (const json& p : array_field(result, "points")) {
    json row = {
        {"config", vega::config_label(p)}, {"rank", field(p, "rank")}, {"latency_s", field(p, "latency_s")}};
    rows.push_back(std::move(row));
  }
  json tau = json::array();
  for (const json& k : array_field(result, "kendall")) {
    const std::string label = "Kendall tau-b " +
                              (field(k, "tau_b").is_number() ? short_number(field(k, "tau_b")) : "n/a") +
                              " over " + text_of(field(k, "n")) + " configurations";
    tau.push_back({{"a", field(k, "a")}, {"b", field(k, "b")}, {"label", label}});
    tau.push_back({{"a", field(k, "b")}, {"b", field(k, "a")}, {"label", label}});
  }
  const auto select = [&](const char* name, const char* label, const std::string& value) {
    return json{{"name", name},
                {"value", value},
                {"bind", {{"input", "select"}, {"options", models}, {"name", label}}}};
  };
  const json axes = json::array({{{"calculate", "datum.rank[model_x]"}, {"as", "rank_x"}},
                                 {{"calculate", "datum.rank[model_y]"}, {"as", "rank_y"}},
                                 {{"calculate", "datum.latency_s[model_x]"}, {"as", "latency_x"}},
                                 {{"calculate", "datum.latency_s[model_y]"}, {"as", "latency_y"}},
                                 {{"filter", "isValid(datum.rank_x) && isValid(datum.rank_y)"}}});
  const json x = vega::log_axis("rank_x", "rank under the x model (log)");
  const json y = vega::log_axis("rank_y", "rank under the y model (log)");
  json layers = json::array();
  layers.push_back(
      {{"data", {{"values", std::move(rows)}}},
       {"transform", axes},
       {"mark",
        {{"type", "point"}, {"filled", true}, {"size", 24}, {"opacity", 0.6}, {"color", okabe_ito()[4]}}},
       {"encoding",
        {{"x", x},
         {"y", y},
         {"tooltip", json::array({text_tip("config", "configuration"), number_tip("rank_x", "rank (x model)"),
                                  number_tip("rank_y", "rank (y model)"),
                                  number_tip("latency_x", "latency, x model (s)"),
                                  number_tip("latency_y", "latency, y model (s)")})}}}});
  layers.push_back(
      {{"data", {{"values", std::move(tau)}}},
       {"transform", json::array({{{"filter", "datum.a == model_x && datum.b == model_y"}}})},
       {"mark",
        {{"type", "text"}, {"align", "left"}, {"baseline", "top"}, {"x", 8}, {"y", 8}, {"fontSize", 13}}},
       {"encoding", {{"text", {{"field", "label"}}}}}});
  return {
      {"$schema", vega::kSchema},
      {"width", 460},
      {"height", 460},
      {"params", json::array({select("model_x", "x model ", models.empty() ? "" : models[0]),
                              select("model_y", "y model ",
                                     models.size() > 1 ? models[1] : (models.empty() ? "" : models[0]))})},
      {"layer", std::move(layers)}};
}

json winner_spec(const json& result) {
  json rows = json::array();
  for (const json& k : array_field(result, "kendall")) {
    const json* change = nullptr;
    for (const json& w : array_field(result, "winner_changes"))
      if (field(w, "a") == field(k, "a") && field(w, "b") == field(k, "b")) change = &w;
    const std::string config = change ? text_of(field(k, "a")) + ": " + text_of(field(*change, "best_a")) +
                                            " / " + text_of(field(k, "b")) + ": " +
                                            text_of(field(*change, "best_b"))
                                      : "the same optimum";
    for (int flip = 0; flip < 2; ++flip)
      rows.push_back(
          {{"a", field(k, flip ? "b" : "a")},
           {"b", field(k, flip ? "a" : "b")},
           {"tau_b", field(k, "tau_b")},
           {"winner", change ? "changes" : "same"},
           {"label", (change ? "changes, tau " : "same, tau ") + short_number(field(k, "tau_b"))},
           {"config", config},
           {"differing", change ? joined(field(*change, "differing_knobs")) : ""},
           {"regret", change ? field(*change, flip ? "regret_of_b_best_under_a" : "regret_of_a_best_under_b")
                             : json(0.0)}});
  }
  const std::vector<std::string>& p = okabe_ito();
  const json tooltip = json::array({text_tip("config", "configuration"),
                                    text_tip("winner", "winner"),
                                    number_tip("tau_b", "Kendall tau-b"),
                                    text_tip("differing", "knobs that differ"),
                                    {{"field", "regret"},
                                     {"type", "quantitative"},
                                     {"title", "regret of the row model's best under the column model"},
                                     {"format", ".1%"}}});
  return {{"$schema", vega::kSchema},
          {"data", {{"values", std::move(rows)}}},
          {"encoding",
           {{"x", {{"field", "b"}, {"type", "nominal"}, {"title", "model"}, {"axis", {{"labelAngle", 0}}}}},
            {"y", {{"field", "a"}, {"type", "nominal"}, {"title", "model"}}}}},
          {"width", {{"step", 150}}},
          {"height", {{"step", 44}}},
          {"layer", json::array({{{"mark", {{"type", "rect"}, {"stroke", "#ffffff"}}},
                                  {"encoding",
                                   {{"color",
                                     {{"field", "winner"},
                                      {"type", "nominal"},
                                      {"title", "the optimum"},
                                      {"scale", {{"domain", {"same", "changes"}}, {"range", {p[1], p[5]}}}}}},
                                    {"tooltip", tooltip}}}},
                                 {{"mark", {{"type", "text"}, {"fontSize", 11}}},
                                  {"encoding", {{"text", {{"field", "label"}}}, {"tooltip", tooltip}}}}})}};
}

}  // namespace

std::vector<ChartSpec> compare_charts(const json& result) {
  const std::vector<std::string> models = model_names(result);
  std::vector<ChartSpec> charts;
  if (!array_field(result, "stages").empty())
    charts.push_back({"latencies", "Each model's optimum under every model",
                      "One group per distinct optimum; one bar per latency model (objective " +
                          text_of(field(result, "objective")) + ").",
                      latency_spec(result)});
  if (!array_field(result, "points").empty()) {
    const bool sampled =
        field(result, "points_sampled").is_boolean() && field(result, "points_sampled").get<bool>();
    charts.push_back(
        {"ranks", "Rank vs rank",
         (sampled ? "Every k-th of the " + text_of(field(result, "points_total")) +
                        " feasible configurations in grid order (points_sampled: true, each such point "
                        "sampled: true; the optima kept)"
                  : "All " + text_of(field(result, "points_total")) + " feasible configurations") +
             ", ranked under the two models chosen below (1 = the best; log axes). On the "
             "diagonal: both models agree.",
         rank_spec(result, models)});
  }
  if (!array_field(result, "kendall").empty())
    charts.push_back({"winners", "Where the winner changes",
                      "Each pair of models: whether their optima differ (vermillion) and Kendall tau-b of "
                      "their rankings; hover for the knobs that differ and the regret.",
                      winner_spec(result)});
  return charts;
}

}  // namespace tessera
