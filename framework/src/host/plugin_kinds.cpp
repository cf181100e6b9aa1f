// The plugin kinds: the out-of-line destructors that anchor each kind interface's vtable and
// typeinfo in libtessera (one copy for host and plugins, so dynamic_cast from PluginObject
// works across library boundaries), and kind names from text. (plugin_kind_name and
// param_type_name live in core/sdk/names.cpp.)
#include <optional>
#include <string_view>

#include "host/plugin_registry.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/kinds/objective.hpp"
#include "tessera/kinds/search_strategy.hpp"
#include "tessera/kinds/serving_model.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

LatencyModel::~LatencyModel() = default;
MemoryModel::~MemoryModel() = default;
Objective::~Objective() = default;
SearchStrategy::~SearchStrategy() = default;
SearchSpace::~SearchSpace() = default;
SearchRun::~SearchRun() = default;
ServingModel::~ServingModel() = default;
StepTimer::~StepTimer() = default;

std::optional<PluginKind> parse_plugin_kind(std::string_view name) {
  for (PluginKind k : kAllPluginKinds)
    if (name == plugin_kind_name(k)) return k;
  return std::nullopt;
}

}  // namespace tessera
