#pragma once
// A scenario made ready to evaluate: its plugins created through the registry, the machine's
// efficiency block validated against the latency plugin, the evaluation context and the
// evaluator. One per (scenario, latency model).
#include <memory>
#include <string>
#include <vector>

#include "eval/evaluator.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/scheduler_policy.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera {

class TESSERA_API Session {
 public:
  // `latency_index` picks one of scenario.plugins.latency (`compare` makes one per model).
  Session(const Scenario& scenario, const PluginRegistry& registry, std::size_t latency_index = 0);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Scenario& scenario() const { return scenario_; }
  const ModelSpec& model() const { return scenario_.model; }
  const MachineSpec& machine() const { return scenario_.machine; }
  const EvalContext& context() const { return evaluator_->context(); }
  // The scenario's workload: the query its evaluator answers (beside the context, never in it).
  const Workload& workload() const { return evaluator_->workload(); }
  const Evaluator& evaluator() const { return *evaluator_; }
  // serving.speculative method draft: the draft model's evaluator (its context on this machine, the
  // same plugins); nullptr otherwise.
  const Evaluator* draft_evaluator() const { return draft_evaluator_.get(); }
  const std::string& latency_name() const { return latency_name_; }
  // The plugin whose machine block this session's latency model reads (its own, or its fallback's:
  // host/plugin_roles.hpp): a machine.plugins.<plugin>.<param> hardware axis sets that block.
  std::string machine_block_owner() const;
  // "uncalibrated: no measurements for this family ..." when the latency plugin reads a machine
  // block (latency/calibrated's `efficiency:`) and the machine has none, so that its documented
  // a-priori defaults apply; "" otherwise. explain prints it and its JSON carries `calibration`.
  const std::string& calibration_note() const { return calibration_note_; }
  const PluginRegistry& registry() const { return registry_; }
  // mode: serve: the scenario's serving plugin (plugins.serving); nullptr otherwise.
  const std::shared_ptr<const ServingModel>& serving() const { return serving_; }
  // mode: serve with plugins.scheduler: the request simulator's policy; nullptr otherwise (the
  // engine's built-in rules).
  const std::shared_ptr<const SchedulerPolicy>& scheduler() const { return scheduler_; }

  // A new session on the same plugins with a changed machine (hardware sweeps).
  std::unique_ptr<Session> with_machine(const MachineSpec& machine) const;
  // The same with scenario-plugin parameters changed (a hardware point's plugins.<kind>... axes,
  // a sensitivity perturbation): the latency model, memory model and objectives they name are
  // re-created with those values (PluginRegistry::create_*); the others are shared.
  std::unique_ptr<Session> with_point(const MachineSpec& machine,
                                      const std::vector<PluginParamValue>& set) const;

  // The same plugins with serving.speculative's k (steps >= 0) and geometric acceptance
  // (acceptance >= 0) set: explore's serving.speculative.<steps|acceptance> axes.
  std::unique_ptr<Session> with_speculative(std::int64_t steps, double acceptance) const;
  // The same plugins with serving.slo replaced (serve sensitivity's SLO knobs).
  std::unique_ptr<Session> with_slo(const ServingSlo& slo) const;
  // A new session of the same scenario and latency model on a pool's own machine
  // (serving.prefill_machine / serving.decode_machine): its efficiency and plugin blocks
  // validated against the latency plugin as `machine:`'s are.
  std::unique_ptr<Session> on_machine(const PoolMachine& pool) const;
  // The same session as a disaggregated pool runs it: its expert-parallel load balancer applied to
  // the model (serving.disaggregated.<pool>.eplb) and its MoE exchange kernels (pool_sessions).
  std::unique_ptr<Session> for_pool(const EplbSpec& eplb, const std::array<MoeA2a, 4>& moe_a2a) const;

 private:
  Session(const Session& base, const MachineSpec& machine, const std::vector<PluginParamValue>& set);
  void build();

  Scenario scenario_;  // owns the model and machine the context points to
  const PluginRegistry& registry_;
  std::size_t latency_index_;
  std::string latency_name_;
  std::string calibration_note_;
  std::shared_ptr<LatencyModel> latency_;
  std::shared_ptr<MemoryModel> memory_;
  std::vector<ObjectiveSlot> objectives_;
  std::shared_ptr<const ServingModel> serving_;
  std::shared_ptr<const SchedulerPolicy> scheduler_;
  std::unique_ptr<Evaluator> evaluator_;
  std::unique_ptr<Evaluator> draft_evaluator_;
};

}  // namespace tessera
