#include "eval/session.hpp"

#include "tessera/error.hpp"

namespace tessera {

Session::Session(const Scenario& scenario, const PluginRegistry& registry, std::size_t latency_index)
    : scenario_(scenario), registry_(registry), latency_index_(latency_index) {
  if (scenario_.plugins.latency.empty())
    throw InputError("scenario " + scenario_.name + " names no latency plugin");
  if (latency_index_ >= scenario_.plugins.latency.size()) latency_index_ = 0;
  const PluginChoice& lat = scenario_.plugins.latency[latency_index_];
  latency_name_ = lat.name;
  // Validate everything before creating anything: plugin parameters and the machine's
  // efficiency block, all problems reported together.
  scenario_.machine.efficiency =
      registry_.machine_params(lat.name, scenario_.machine_efficiency, scenario_.machine_file);
  latency_ = registry_.create_latency(lat);
  memory_ = registry_.create_memory(scenario_.plugins.memory);
  for (const PluginChoice& o : scenario_.plugins.objectives) {
    ObjectiveSlot slot;
    slot.name = o.name;
    auto obj = registry_.create_objective(o);
    slot.direction = obj->direction();
    slot.unit = obj->unit();
    slot.objective = std::move(obj);
    objectives_.push_back(std::move(slot));
  }
  if (objectives_.size() > static_cast<std::size_t>(kMaxObjectives))
    throw InputError("at most " + std::to_string(kMaxObjectives) + " objectives are supported");
  build();
}

Session::Session(const Session& base, const MachineSpec& machine)
    : scenario_(base.scenario_),
      registry_(base.registry_),
      latency_index_(base.latency_index_),
      latency_name_(base.latency_name_),
      latency_(base.latency_),
      memory_(base.memory_),
      objectives_(base.objectives_) {
  ParamSet efficiency = scenario_.machine.efficiency;
  scenario_.machine = machine;
  scenario_.machine.efficiency = std::move(efficiency);
  build();
}

void Session::build() {
  const EvalContext ctx = make_eval_context(scenario_.model, scenario_.machine, scenario_.workload);
  evaluator_ = std::make_unique<Evaluator>(ctx, latency_, memory_, objectives_);
}

std::unique_ptr<Session> Session::with_machine(const MachineSpec& machine) const {
  return std::unique_ptr<Session>(new Session(*this, machine));
}

}  // namespace tessera
