// The plugin kinds' out-of-line destructors, which anchor each kind interface's vtable and
// typeinfo in libtessera_sdk: one copy for the host and every plugin, so dynamic_cast from
// PluginObject works across library boundaries.
#include <stdexcept>
#include <string>

#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/kinds/objective.hpp"
#include "tessera/kinds/scheduler_policy.hpp"
#include "tessera/kinds/search_strategy.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera {

LatencyModel::~LatencyModel() = default;
MemoryModel::~MemoryModel() = default;
Objective::~Objective() = default;
SearchStrategy::~SearchStrategy() = default;
SearchSpace::~SearchSpace() = default;
SearchRun::~SearchRun() = default;
ServingModel::~ServingModel() = default;
StepTimer::~StepTimer() = default;
SchedulerPolicy::~SchedulerPolicy() = default;
SchedulerQueues::~SchedulerQueues() = default;
void SchedulerQueues::running_out_of_range(std::size_t i) const {
  throw std::out_of_range("running(" + std::to_string(i) + ") of " + std::to_string(running_count_) +
                          " running sequences");
}
SchedulerDecision::~SchedulerDecision() = default;
ReplicaLoads::~ReplicaLoads() = default;

}  // namespace tessera
