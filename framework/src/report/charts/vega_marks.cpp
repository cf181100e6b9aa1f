#include "report/charts/vega_marks.hpp"

#include "report/charts/vega_json.hpp"
#include "report/charts/vega_specs.hpp"

namespace tessera::vega {

using nlohmann::json;

json frontier_mark() {
  return {{"type", "point"}, {"shape", "diamond"}, {"filled", false},
          {"size", 140},     {"strokeWidth", 2},   {"color", "#000000"}};
}

json ranked_band(const std::string& f, const std::string& rank_field, int label_limit) {
  json y = {{"field", f},
            {"type", "nominal"},
            {"title", nullptr},
            {"sort", {{"field", rank_field}, {"op", "min"}}}};
  if (label_limit > 0) y["axis"] = {{"labelLimit", label_limit}};
  return y;
}

json ranked_bars(int width, int step, json rows, json y, json x, json more) {
  json encoding = std::move(more);
  encoding["y"] = std::move(y);
  encoding["x"] = std::move(x);
  json spec = {{"$schema", kSchema}, {"width", width}, {"height", {{"step", step}}}};
  spec["data"]["values"] = std::move(rows);
  spec["mark"] = {{"type", "bar"}};
  spec["encoding"] = std::move(encoding);
  return spec;
}

json picked_size(double normal, double chosen) {
  return {{"condition", {{"test", "'' + datum.id === picked"}, {"value", chosen}}}, {"value", normal}};
}

json picked_param(const std::string& id) { return {{"name", "picked"}, {"value", id}}; }

json part_colour() {
  const std::vector<std::string>& p = okabe_ito();
  return {{"field", "part"},
          {"type", "nominal"},
          {"title", "time spent on"},
          {"scale",
           {{"domain", {"compute", "memory", "communication", "overhead"}},
            {"range", {p[4], p[0], p[2], p[6]}}}}};
}

namespace {
double number(const json& v) { return v.is_number() ? v.get<double>() : 0.0; }
}  // namespace

void add_breakdown_rows(json& rows, const json& id, const std::string& config, const std::string& step,
                        const json& stages) {
  const std::string key = id.is_string() ? id.get<std::string>() : id.dump();
  std::size_t order = rows.size();  // unique across the configurations and steps
  for (const json& s : stages.is_array() ? stages : json::array()) {
    const double count = number(field(s, "count"));
    const std::string stage = (step.empty() ? "" : step + ": ") + text_of(field(s, "name"));
    const std::pair<const char*, const char*> parts[] = {{"compute", "compute_s"},
                                                         {"memory", "memory_s"},
                                                         {"communication", "communication_s"},
                                                         {"overhead", "overhead_s"}};
    std::size_t part_order = 0;
    for (const auto& [part, key_s] : parts) {
      ++part_order;
      const double seconds = number(field(s, key_s));
      if (seconds <= 0) continue;
      rows.push_back({{"id", key},
                      {"config", config},
                      {"stage", stage},
                      {"order", order},
                      {"part", part},
                      {"part_order", part_order},
                      {"count", count},
                      {"seconds_each", seconds},
                      {"time_s", seconds * count}});
    }
    ++order;
  }
}

json breakdown_spec(json rows, const std::string& chosen_id) {
  json more = {{"color", part_colour()},
               {"order", {{"field", "part_order"}}},
               {"tooltip", json::array({text_tip("config", "configuration"), text_tip("stage", "stage"),
                                        text_tip("part", "part"), number_tip("time_s", "time per step (s)"),
                                        number_tip("count", "occurrences"),
                                        number_tip("seconds_each", "part (s, each)")})}};
  json spec = ranked_bars(640, 18, std::move(rows), ranked_band("stage", "order", 300),
                          {{"field", "time_s"},
                           {"type", "quantitative"},
                           {"stack", "zero"},
                           {"title", "time per step (s): per occurrence x occurrences"}},
                          std::move(more));
  spec["params"] = json::array({{{"name", "chosen"}, {"value", chosen_id}}});
  spec["transform"] = json::array({{{"filter", "datum.id === chosen"}}});
  return spec;
}

}  // namespace tessera::vega
