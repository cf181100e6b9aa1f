// What `framework:` did to a study, as JSON: serving_stack_json.hpp.
#include "studies/json/serving_stack_json.hpp"

namespace tessera {

nlohmann::json serving_stack_json(const Scenario& s, const ServeCounts* counts) {
  const ServingStackChoice& f = s.framework;
  nlohmann::json values = nlohmann::json::array();
  for (const DroppedValues& d : s.stack_dropped)
    values.push_back({{"knob", d.knob}, {"values", d.values}, {"count", d.count}, {"reason", d.reason}});
  nlohmann::json j = {{"name", f.profile.name},         {"title", f.profile.title},
                      {"version", f.version().version}, {"version_given", f.version_given},
                      {"docs", f.version().docs},       {"catalog", f.catalog_file},
                      {"dropped_values", values}};
  if (counts) {
    nlohmann::json configs = nlohmann::json::object();
    for (std::size_t i = 1; i < kStackMisses; ++i)
      if (counts->stack_dropped[i] > 0)
        configs[stack_miss_text(static_cast<ServingStackMiss>(i))] = counts->stack_dropped[i];
    j["dropped_configurations"] = configs;
  }
  return j;
}

}  // namespace tessera
