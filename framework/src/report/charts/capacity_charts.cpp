#include "report/charts/capacity_charts.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "report/charts/vega_json.hpp"

namespace tessera {
namespace {

using nlohmann::json;
using vega::array_field;
using vega::field;
using vega::number_tip;
using vega::text_of;
using vega::text_tip;

// "#1 tp8 pp1 dp1 ep1, batch 128, budget 8192": a finalist by its simulated rank (every knob
// in the tooltip's configuration).
std::string finalist_label(const json& f) {
  const json& c = field(f, "config");
  std::string s = "#" + text_of(field(f, "simulated_rank"));
  for (const char* k : {"cp", "tp", "pp", "dp", "ep"})
    if (std::string(k) != "cp" || text_of(field(c, k)) != "1")
      s += " " + std::string(k) + text_of(field(c, k));
  const std::string budget = text_of(field(f, "token_budget"));
  return s + ", batch " + text_of(field(f, "batch")) + ", budget " + (budget == "0" ? "none" : budget);
}

// One row per probe with a positive `metric_key` (log axis), each finalist's in load order.
json probe_rows(const json& capacity, const char* load, const char* metric_key) {
  json rows = json::array();
  for (const json& f : array_field(capacity, "finalists")) {
    const std::string label = finalist_label(f);
    for (const json& p : array_field(field(f, "capacity"), "probes")) {
      const json& v = field(p, metric_key);
      if (!v.is_number() || v.get<double>() <= 0 || !field(p, load).is_number()) continue;
      rows.push_back({{"configuration", label},
                      {"load", field(p, load)},
                      {"latency_s", v},
                      {"met", field(p, "met").is_boolean() && field(p, "met").get<bool>() ? "yes" : "no"}});
    }
  }
  return rows;
}

// The dashed limit of the P99 target on `metric` ("ttft", "tpot"; null: none — a limit on
// another statistic is not drawn on a P99 axis).
json limit_of(const json& capacity, const char* metric) {
  for (const json& t : array_field(capacity, "targets"))
    if (text_of(field(t, "metric")) == metric && text_of(field(t, "statistic")) == "p99" &&
        field(t, "limit_s").is_number())
      return field(t, "limit_s");
  return nullptr;
}

json latency_spec(json rows, const std::string& load_title, const std::string& y_title, const json& limit) {
  const json x = {{"field", "load"}, {"type", "quantitative"}, {"title", load_title}};
  const json tip = json::array({text_tip("configuration", "configuration"), number_tip("load", load_title),
                                number_tip("latency_s", y_title), text_tip("met", "every SLO met")});
  json layers = json::array();
  layers.push_back({{"mark", {{"type", "line"}, {"point", true}}},
                    {"encoding",
                     {{"x", x},
                      {"y", vega::log_axis("latency_s", y_title + ", log scale")},
                      {"color",
                       {{"field", "configuration"},
                        {"type", "nominal"},
                        {"title", "finalist"},
                        {"sort", nullptr},
                        {"legend", {{"labelLimit", 360}}},
                        {"scale", {{"scheme", "tableau20"}}}}},
                      {"shape", {{"field", "met"}, {"type", "nominal"}, {"title", "every SLO met"}}},
                      {"order", {{"field", "load"}, {"type", "quantitative"}}},
                      {"tooltip", tip}}}});
  if (limit.is_number())
    layers.push_back({{"data", {{"values", json::array({{{"limit_s", limit}}})}}},
                      {"mark", {{"type", "rule"}, {"strokeDash", {6, 4}}, {"color", "black"}}},
                      {"encoding", {{"y", {{"field", "limit_s"}, {"type", "quantitative"}}}}}});
  return vega::layered(std::move(rows), std::move(layers), 560, 300);
}

json comparison_spec(const json& capacity) {
  json rows = json::array();
  double top = 0, bottom = INFINITY;
  for (const json& f : array_field(capacity, "finalists")) {
    const json& sim = field(f, "tokens_per_s_per_pe");
    const json& ana = field(field(f, "analytical"), "tokens_per_s_per_pe");
    if (!sim.is_number() || !ana.is_number()) continue;
    top = std::max({top, sim.get<double>(), ana.get<double>()});
    bottom = std::min({bottom, sim.get<double>(), ana.get<double>()});
    const bool moved = field(f, "moved").is_boolean() && field(f, "moved").get<bool>();
    rows.push_back({{"configuration", finalist_label(f)},
                    {"analytical", ana},
                    {"simulated", sim},
                    {"analytical_rank", field(f, "analytical_rank")},
                    {"moved", moved ? "yes" : "no"}});
  }
  const json tip = json::array(
      {text_tip("configuration", "configuration"), number_tip("analytical", "analytical tok/s/PE"),
       number_tip("simulated", "simulated tok/s/PE at capacity"),
       number_tip("analytical_rank", "analytical rank"), text_tip("moved", "rank moved")});
  // Both axes over the points' span (a finalist with no capacity, its figure null, is left out),
  // so the dashed line of agreement is the diagonal.
  const double lo = std::isfinite(bottom) ? 0.9 * bottom : 0, hi = top > 0 ? 1.05 * top : 1;
  const json scale = {{"domain", json::array({lo, hi})}};
  const auto axis = [&](const char* f, const char* title) {
    return json{{"field", f}, {"type", "quantitative"}, {"title", title}, {"scale", scale}};
  };
  json layers = json::array();
  layers.push_back({{"data", {{"values", json::array({{{"v", lo}}, {{"v", hi}}})}}},
                    {"mark", {{"type", "line"}, {"strokeDash", {6, 4}}, {"color", "#999999"}}},
                    {"encoding", {{"x", axis("v", "analytical tokens/s/PE")}, {"y", axis("v", "")}}}});
  layers.push_back({{"mark", {{"type", "point"}, {"filled", true}, {"size", 70}}},
                    {"encoding",
                     {{"x", axis("analytical", "analytical tokens/s/PE")},
                      {"y", axis("simulated", "simulated tokens/s/PE at capacity")},
                      {"color",
                       {{"field", "moved"},
                        {"type", "nominal"},
                        {"title", "rank moved"},
                        {"scale", {{"domain", {"no", "yes"}}, {"range", {"#0072B2", "#D55E00"}}}}}},
                      {"tooltip", tip}}}});
  return vega::layered(std::move(rows), std::move(layers), 420, 420);
}

}  // namespace

std::vector<ChartSpec> capacity_charts(const json& result) {
  const json& capacity = field(result, "capacity");
  std::vector<ChartSpec> charts;
  if (!capacity.is_object() || array_field(capacity, "finalists").empty()) return charts;
  const bool clients = text_of(field(capacity, "load")) == "clients";
  const char* load = clients ? "clients" : "rate_per_s";
  const std::string load_title =
      clients ? "clients (closed loop)" : "offered rate (" + text_of(field(capacity, "load_unit")) + ")";
  const std::string probes =
      "Each point a probe of the capacity search (" +
      text_of(field(field(capacity, "settings"), "min_requests")) +
      "+ measured requests), its shape whether every SLO held. Dashed: the P99 target, when the SLO has one.";
  charts.push_back({"capacity-ttft", "P99 TTFT against load, the finalists", probes,
                    latency_spec(probe_rows(capacity, load, "ttft_p99_s"), load_title, "P99 TTFT (s)",
                                 limit_of(capacity, "ttft"))});
  charts.push_back({"capacity-tpot", "P99 TPOT against load, the finalists", probes,
                    latency_spec(probe_rows(capacity, load, "tpot_p99_s"), load_title, "P99 TPOT (s)",
                                 limit_of(capacity, "tpot"))});
  charts.push_back(
      {"capacity-analytical", "Analytical vs simulated tokens/s/PE",
       "The analytical top " + text_of(field(capacity, "simulated")) +
           ": the steady state's tokens/s/PE against the simulated one at each capacity. Dashed: "
           "agreement; vermillion: a rank moved by more than " +
           text_of(field(field(capacity, "settings"), "rank_shift_flag")) + " places.",
       comparison_spec(capacity)});
  return charts;
}

}  // namespace tessera
