#include "report/charts/simulation_charts.hpp"

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

// One row per (metric, percentile): P1..P99 then P100 = the max. Values at or below zero are
// left out (log axis).
json cdf_rows(const json& sim) {
  json rows = json::array();
  const std::pair<const char*, const char*> metrics[] = {
      {"ttft", "TTFT"}, {"tpot", "TPOT"}, {"e2e", "end to end"}};
  for (const auto& [key, label] : metrics) {
    const json& m = field(sim, key);
    const json& cdf = array_field(m, "cdf_s");
    for (std::size_t i = 0; i < cdf.size(); ++i)
      if (cdf[i].is_number() && cdf[i].get<double>() > 0)
        rows.push_back(
            {{"metric", label}, {"latency_s", cdf[i]}, {"percentile", static_cast<double>(i + 1)}});
    const json& max = field(m, "max_s");
    if (max.is_number() && max.get<double>() > 0)
      rows.push_back({{"metric", label}, {"latency_s", max}, {"percentile", 100.0}});
  }
  return rows;
}

json cdf_spec(json rows) {
  return {{"$schema", vega::kSchema},
          {"width", 560},
          {"height", 320},
          {"data", {{"values", std::move(rows)}}},
          {"mark", {{"type", "line"}, {"point", true}, {"interpolate", "step-after"}}},
          {"encoding",
           {{"x", vega::log_axis("latency_s", "latency (s), log scale")},
            {"y",
             {{"field", "percentile"},
              {"type", "quantitative"},
              {"title", "requests at or below (%)"},
              {"scale", {{"domain", {0, 100}}}}}},
            {"color",
             {{"field", "metric"},
              {"type", "nominal"},
              {"title", "metric"},
              {"scale", {{"range", okabe_ito()}}}}},
            {"tooltip", json::array({text_tip("metric", "metric"), number_tip("percentile", "percentile"),
                                     number_tip("latency_s", "latency (s)")})}}}};
}

// `mean` drawn as a line, `peak` as a light area under it: one chart of `time_series`.
json over_time_spec(const json& series, const std::string& mean, const std::string& peak,
                    const std::string& title, bool fraction) {
  json rows = json::array();
  for (const json& t : series.is_array() ? series : json::array())
    rows.push_back({{"start_s", field(t, "start_s")},
                    {"mean", field(t, mean.c_str())},
                    {"peak", field(t, peak.c_str())}});
  json y = {{"type", "quantitative"}, {"title", title}};
  if (fraction) y["axis"] = {{"format", "%"}};
  json y_mean = y, y_peak = y;
  y_mean["field"] = "mean";
  y_peak["field"] = "peak";
  const json x = {
      {"field", "start_s"}, {"type", "quantitative"}, {"title", "time since the simulation's start (s)"}};
  const json tip = json::array(
      {number_tip("start_s", "bin start (s)"), number_tip("mean", "mean"), number_tip("peak", "peak")});
  json layers = json::array();
  layers.push_back(
      {{"mark", {{"type", "area"}, {"interpolate", "step-after"}, {"color", "#56B4E9"}, {"opacity", 0.35}}},
       {"encoding", {{"x", x}, {"y", y_peak}, {"tooltip", tip}}}});
  layers.push_back({{"mark", {{"type", "line"}, {"interpolate", "step-after"}, {"color", "#0072B2"}}},
                    {"encoding", {{"x", x}, {"y", y_mean}, {"tooltip", tip}}}});
  // A small point per bin on the line: what a reader hovers for the bin's figures.
  layers.push_back({{"mark", {{"type", "point"}, {"filled", true}, {"size", 14}, {"color", "#0072B2"}}},
                    {"encoding", {{"x", x}, {"y", y_mean}, {"tooltip", tip}}}});
  return vega::layered(std::move(rows), std::move(layers), 560, 200);
}

// What prefix caching did (docs/physics.md §12.7), for the KV chart's note ("" when off).
std::string cache_note(const json& cache) {
  if (!cache.is_object()) return "";
  const double all = cache.value("prompt_blocks", 0.0);
  if (!(all > 0)) return " Prefix cache: no prompt block could be shared.";
  auto share = [&](double n) { return vega::short_number(json(100 * n / all)) + " %"; };
  std::string s = " Prefix cache: " + share(cache.value("hbm_hit_blocks", 0.0)) +
                  " of the admitted prompts' full blocks found in HBM";
  if (const auto it = cache.find("loaded_blocks"); it != cache.end() && it->is_object())
    for (const auto& [tier, n] : it->items()) s += ", " + share(n.get<double>()) + " loaded from " + tier;
  return s + ".";
}

}  // namespace

std::vector<ChartSpec> simulation_charts(const json& result) {
  const json& sim = field(result, "simulation");
  std::vector<ChartSpec> charts;
  if (!sim.is_object()) return charts;
  const std::string where =
      "Requests simulated on the best point (" + vega::config_label(field(sim, "config")) + ", batch " +
      text_of(field(sim, "batch")) + "), " + text_of(field(sim, "requests_measured")) + " measured.";
  ChartSpec cdf{"latency-cdf", "Latency CDFs of the simulated requests",
                where + " P1 to P99 and the max of each metric (TPOT per request).", cdf_spec(cdf_rows(sim))};
  cdf.has_configs = false;
  charts.push_back(std::move(cdf));
  const json& series = field(sim, "time_series");
  const std::string bins = "Bins of " + vega::short_number(field(sim, "time_series_bin_s")) +
                           " s over the whole run (warm-up included): the line the time-weighted mean, the "
                           "shaded area the peak.";
  ChartSpec queue{"queue-depth", "Queue depth over time", bins,
                  over_time_spec(series, "queue_depth_mean", "queue_depth_peak", "requests waiting", false)};
  queue.has_configs = false;
  charts.push_back(std::move(queue));
  ChartSpec kv{"kv-occupancy", "KV occupancy over time", bins + cache_note(field(sim, "prefix_cache")),
               over_time_spec(series, "kv_occupancy_mean", "kv_occupancy_peak", "KV blocks used", true)};
  kv.has_configs = false;
  charts.push_back(std::move(kv));
  return charts;
}

}  // namespace tessera
