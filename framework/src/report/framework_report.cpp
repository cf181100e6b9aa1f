// Rendering what `framework:` did (report/framework_report.hpp).
#include "report/framework_report.hpp"

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

void print_framework_text(std::ostream& os, const Scenario& s, const ServeCounts* counts) {
  if (!s.framework.set) return;
  const FrameworkChoice& f = s.framework;
  os << "framework  " << f.profile.title << ' ' << f.version().version << " (" << f.label()
     << (f.version_given ? "" : ", the newest listed") << "): the space keeps what it runs\n";
  for (const DroppedValues& d : s.framework_dropped)
    os << "           dropped " << d.knob << ' ' << d.values << ": " << d.reason << '\n';
  if (counts)
    for (std::size_t i = 1; i < kFrameworkMisses; ++i)
      if (counts->framework_dropped[i] > 0)
        os << "           dropped " << counts->framework_dropped[i]
           << " configurations: " << framework_miss_text(static_cast<FrameworkMiss>(i)) << '\n';
}

}  // namespace tessera
