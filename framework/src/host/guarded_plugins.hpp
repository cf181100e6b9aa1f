#pragma once
// Plugin objects behind the failure barrier. The registry never hands out a plugin's object
// bare: it wraps it in a host-side proxy of the same kind, so that every call into the
// plugin's code, wherever the host makes it (evaluation, search, explain, compare, explore,
// sensitivity, validate-data), goes through call_plugin (plugin_barrier.hpp) and what comes back
// is checked (returned_values.hpp) before the host uses it:
//   latency   time_step: every stage's times, count and bytes finite and >= 0, a name, at most
//             StageList::kCapacity stages;
//   memory    evaluate: every byte count finite and >= 0;
//   objective evaluate: a finite value (unless the host's own totals were not: docs/limits.md),
//             direction() one of the two, unit() not null;
//   search    start: a SearchRun, not null; propose: at most the buffer's size; receive;
//             separable.
//   serving   evaluate: every time and rate finite and >= 0, counts >= 0, tail >= mean.
//   scheduler schedule: guarded (its decision is checked against the engine by the request
//             simulator, analysis/requests/replica_policy.cpp); route: guarded.
// A failure is `plugin KIND/NAME VERSION (PATH): <call> returned/threw ...` (PluginError,
// exit 1; an InputError from the plugin stays one, exit 2). The evaluator adds the
// configuration (eval/evaluator.hpp). The proxy costs one more virtual call per call.
#include <memory>
#include <string_view>

#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/kinds/objective.hpp"
#include "tessera/kinds/scheduler_policy.hpp"
#include "tessera/kinds/search_strategy.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera {

// `object` (created by `plugin`'s factory) behind the barrier. The proxy keeps the object, and
// so its library, alive; it copies `plugin`, so it may outlive the registry.
std::shared_ptr<LatencyModel> guard_plugin(std::shared_ptr<LatencyModel> object, const LoadedPlugin& plugin);
std::shared_ptr<MemoryModel> guard_plugin(std::shared_ptr<MemoryModel> object, const LoadedPlugin& plugin);
std::shared_ptr<SearchStrategy> guard_plugin(std::shared_ptr<SearchStrategy> object,
                                             const LoadedPlugin& plugin);
std::shared_ptr<Objective> guard_plugin(std::shared_ptr<Objective> object, const LoadedPlugin& plugin);
std::shared_ptr<ServingModel> guard_plugin(std::shared_ptr<ServingModel> object, const LoadedPlugin& plugin);
std::shared_ptr<SchedulerPolicy> guard_plugin(std::shared_ptr<SchedulerPolicy> object,
                                              const LoadedPlugin& plugin);

// The plugin a guarded object comes from; nullptr for an object the registry did not create
// (a model linked into a test or a benchmark).
TESSERA_API const LoadedPlugin* plugin_behind(const PluginObject& object);

// Throws PluginError `plugin KIND/NAME VERSION (PATH): <what>` for `object`'s plugin
// (`<kind>: <what>` for an object the registry did not create).
[[noreturn]] TESSERA_API void throw_plugin_error(const PluginObject& object, std::string_view kind,
                                                 const std::string& what);

}  // namespace tessera
