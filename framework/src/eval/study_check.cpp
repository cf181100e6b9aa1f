#include "eval/study_check.hpp"

#include <algorithm>
#include <optional>

#include "tessera/limits.hpp"

namespace tessera {

WorkSize check_study(const Scenario& scenario, const PluginRegistry& registry, const std::string& study,
                     const StudyShape& shape, std::vector<Diagnostic>& diags) {
  // A sampling search (one that declares `samples`) evaluates at most that many per machine.
  std::optional<std::uint64_t> samples;
  std::vector<Diagnostic> ignored;
  const ParamSet params = registry.check_choice(PluginKind::search, scenario.plugins.search, ignored);
  if (ignored.empty() && params.has("samples")) {
    const std::int64_t n = params.integer("samples");
    samples = static_cast<std::uint64_t>(std::max<std::int64_t>(0, n));
    if (*samples > current_limits().search_samples) {
      SourceLocation where = scenario.plugins.search.where;
      for (const RawParam& p : scenario.plugins.search.params)
        if (p.key == "samples") where = p.where;
      diags.push_back({where, "plugins.search.samples: " + std::to_string(*samples) + " samples " +
                                  limit_exceeded("search.samples")});
    }
  }
  const WorkSize w = size_work(scenario.sweep, shape.machines, shape.latency_models, samples);
  if (w.evaluations > current_limits().max_configs)
    diags.push_back({SourceLocation{scenario.file.empty() ? std::string("<scenario>") : scenario.file, 0, 0},
                     study + ": " + describe_work(w) + ", which " + limit_exceeded("max_configs")});
  return w;
}

}  // namespace tessera
