#include "studies/work_plan.hpp"

#include <thread>
#include <utility>
#include <vector>

#include "tessera/error.hpp"

namespace tessera::studies {

WorkPlan plan_work(const Scenario& scenario, const PluginRegistry& registry, const std::string& study,
                   const StudyShape& shape, unsigned threads) {
  std::vector<Diagnostic> diags;
  WorkPlan plan;
  plan.size = check_study(scenario, registry, study, shape, diags);
  if (!diags.empty()) throw InputErrors(std::move(diags));
  plan.description = describe_work(plan.size);
  plan.threads = threads ? threads : std::thread::hardware_concurrency();
  if (plan.threads == 0) plan.threads = 1;
  plan.seconds = estimated_seconds(plan.size, plan.threads);
  plan.index_bytes = estimated_bytes(plan.size);
  return plan;
}

}  // namespace tessera::studies
