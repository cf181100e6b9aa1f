// What `framework:` did to a study, as JSON: framework_json.hpp.
#include "studies/json/framework_json.hpp"

namespace tessera {

nlohmann::json framework_json(const Scenario& s, const ServeCounts* counts) {
  const FrameworkChoice& f = s.framework;
  nlohmann::json values = nlohmann::json::array();
  for (const DroppedValues& d : s.framework_dropped)
    values.push_back({{"knob", d.knob}, {"values", d.values}, {"count", d.count}, {"reason", d.reason}});
  nlohmann::json j = {{"name", f.profile.name},         {"title", f.profile.title},
                      {"version", f.version().version}, {"version_given", f.version_given},
                      {"docs", f.version().docs},       {"catalog", f.catalog_file},
                      {"dropped_values", values}};
  if (counts) {
    nlohmann::json configs = nlohmann::json::object();
    for (std::size_t i = 1; i < kFrameworkMisses; ++i)
      if (counts->framework_dropped[i] > 0)
        configs[framework_miss_text(static_cast<FrameworkMiss>(i))] = counts->framework_dropped[i];
    j["dropped_configurations"] = configs;
  }
  return j;
}

}  // namespace tessera
