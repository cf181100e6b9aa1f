#include "eval/session.hpp"

#include "host/plugin_roles.hpp"
#include "scenario/eplb_check.hpp"
#include "scenario/sweeps/plugin_axes.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {
// The scenario's `framework: NAME[@VERSION]` is the one framework key: a latency plugin that
// takes a `framework` parameter (latency/calibrated's overhead profiles) gets the name, and the
// version through `framework_version` when it takes one. A plugin parameter `framework` that
// names another framework is an error; one that agrees is redundant and kept.
void apply_serving_stack_key(const Scenario& sc, const PluginRegistry& registry, PluginChoice& lat) {
  const ServingStackChoice& fw = sc.framework;
  if (!fw.set) return;
  const LoadedPlugin* plugin = registry.find(PluginKind::latency, lat.name);
  if (plugin == nullptr) return;
  bool has_serving_stack = false, has_version = false;
  for (std::uint32_t i = 0; i < plugin->descriptor->param_count; ++i) {
    const std::string n = plugin->descriptor->params[i].name;
    has_serving_stack = has_serving_stack || n == "framework";
    has_version = has_version || n == "framework_version";
  }
  if (!has_serving_stack) return;
  bool named = false, versioned = false;
  for (const RawParam& r : lat.params) {
    if (r.key == "framework") {
      if (r.text != fw.profile.name)
        throw InputErrors({Diagnostic{r.where, "plugins.latency.framework: '" + r.text +
                                                   "' disagrees with the scenario's framework: " +
                                                   fw.label() + " (the scenario key sets it; drop one)"}});
      named = true;
    }
    if (r.key == "framework_version") {
      if (r.text != fw.version().version)
        throw InputErrors(
            {Diagnostic{r.where, "plugins.latency.framework_version: '" + r.text +
                                     "' disagrees with the scenario's framework: " + fw.label()}});
      versioned = true;
    }
  }
  if (!named) {
    RawParam p;
    p.key = "framework";
    p.text = fw.profile.name;
    p.where = fw.where;
    lat.params.push_back(p);
  }
  if (has_version && !versioned) {
    RawParam p;
    p.key = "framework_version";
    p.text = fw.version().version;
    p.where = fw.where;
    lat.params.push_back(p);
  }
}
}  // namespace

Session::Session(const Scenario& scenario, const PluginRegistry& registry, std::size_t latency_index)
    : scenario_(scenario), registry_(registry), latency_index_(latency_index) {
  if (scenario_.plugins.latency.empty())
    throw InputError("scenario " + scenario_.name + " names no latency plugin");
  if (latency_index_ >= scenario_.plugins.latency.size()) latency_index_ = 0;
  apply_serving_stack_key(scenario_, registry_, scenario_.plugins.latency[latency_index_]);
  const PluginChoice& lat = scenario_.plugins.latency[latency_index_];
  latency_name_ = lat.name;
  // Validate everything before creating anything: plugin parameters and the machine's
  // efficiency block, all problems reported together.
  // The machine block this latency plugin reads (`plugins.<name>`, the key its descriptor declares,
  // or its fallback's: host/plugin_roles.hpp); the blocks of plugins that do not run here are not
  // read.
  const MachineBlock* block = machine_block_for(registry_, scenario_.machine_blocks, lat.name);
  const LoadedPlugin* schema = registry_.find(PluginKind::latency, machine_block_owner());
  if (!block && schema && schema->descriptor->machine_param_count > 0)
    calibration_note_ = "uncalibrated: no measurements for this family (" + scenario_.machine.name +
                        " has no `" + machine_block_spelling(registry_, lat.name) +
                        ":` block; the documented a-priori defaults apply)";
  scenario_.machine.efficiency =
      registry_.machine_block(lat.name, block ? block->params : std::vector<RawParam>{},
                              block ? block->label : "machine.plugins." + lat.name, scenario_.machine_file);
  std::vector<Diagnostic> axis_problems;
  resolve_plugin_axes(scenario_.sweep, scenario_.plugins, registry_, axis_problems);
  if (!axis_problems.empty()) throw InputErrors(std::move(axis_problems));
  latency_ = registry_.create_latency(lat);
  memory_ = registry_.create_memory(scenario_.plugins.memory);
  if (scenario_.workload.mode == Mode::serve) serving_ = registry_.create_serving(scenario_.plugins.serving);
  if (scenario_.workload.mode == Mode::serve && !scenario_.plugins.scheduler.name.empty())
    scheduler_ = registry_.create_scheduler(scenario_.plugins.scheduler);
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

namespace {
bool names(const std::vector<PluginParamValue>& set, PluginKind kind, const std::string& plugin) {
  for (const PluginParamValue& v : set)
    if (v.kind == kind && v.plugin == plugin) return true;
  return false;
}
}  // namespace

Session::Session(const Session& base, const MachineSpec& machine, const std::vector<PluginParamValue>& set)
    : scenario_(base.scenario_),
      registry_(base.registry_),
      latency_index_(base.latency_index_),
      latency_name_(base.latency_name_),
      calibration_note_(base.calibration_note_),
      latency_(base.latency_),
      memory_(base.memory_),
      objectives_(base.objectives_),
      serving_(base.serving_),
      scheduler_(base.scheduler_) {
  // `machine` derives from this session's machine: its efficiency set is the validated block,
  // with any machine-block parameter a hardware point or knob changed.
  scenario_.machine = machine;
  if (names(set, PluginKind::latency, latency_name_))
    latency_ = registry_.create_latency(scenario_.plugins.latency[latency_index_], set);
  if (names(set, PluginKind::memory, scenario_.plugins.memory.name))
    memory_ = registry_.create_memory(scenario_.plugins.memory, set);
  for (std::size_t i = 0; i < objectives_.size() && i < scenario_.plugins.objectives.size(); ++i)
    if (names(set, PluginKind::objective, objectives_[i].name))
      objectives_[i].objective = registry_.create_objective(scenario_.plugins.objectives[i], set);
  build();
}

void Session::build() {
  EvalContext ctx = make_eval_context(scenario_.model, scenario_.machine);
  ctx.moe_a2a = scenario_.moe_a2a;
  evaluator_ = std::make_unique<Evaluator>(ctx, scenario_.workload, latency_, memory_, objectives_);
  EngineKv kv = scenario_.engine_kv;
  // The engine loads the speculative drafter beside the model (docs/physics.md §12.8); a serving
  // point that drafts nothing (k = 0) takes it out (EngineKv::at_draft).
  draft_evaluator_.reset();
  if (const SpeculativeSpec& sp = scenario_.serving.speculative; sp.given && sp.draft_model) {
    // A draft model: its own context on this machine, timed and sized by the same plugins.
    EvalContext draft = make_eval_context(*sp.draft_model, scenario_.machine);
    draft.moe_a2a = scenario_.moe_a2a;
    draft_evaluator_ = std::make_unique<Evaluator>(draft, scenario_.workload, latency_, memory_, objectives_);
    kv.draft_model = true;
  } else if (sp.given) {
    kv.draft_layers = 1;
    kv.draft_fc_inputs = sp.draft_fc_inputs();
    kv.draft_dense = !sp.draft_moe();
  }
  evaluator_->set_engine_kv(kv);
  evaluator_->set_draft_model(draft_evaluator_.get());
}

std::unique_ptr<Session> Session::with_machine(const MachineSpec& machine) const {
  return std::unique_ptr<Session>(new Session(*this, machine, {}));
}

std::unique_ptr<Session> Session::with_point(const MachineSpec& machine,
                                             const std::vector<PluginParamValue>& set) const {
  return std::unique_ptr<Session>(new Session(*this, machine, set));
}

std::unique_ptr<Session> Session::with_speculative(std::int64_t steps, double acceptance) const {
  auto s = std::unique_ptr<Session>(new Session(*this, scenario_.machine, {}));
  SpeculativeSpec& sp = s->scenario_.serving.speculative;
  if (steps >= 0) sp.steps = steps;
  if (acceptance >= 0) {
    sp.acceptance = acceptance;
    sp.acceptance_by_position.clear();
  }
  s->build();
  return s;
}

std::unique_ptr<Session> Session::with_slo(const ServingSlo& slo) const {
  auto s = std::unique_ptr<Session>(new Session(*this, scenario_.machine, {}));
  s->scenario_.serving.slo = slo;
  return s;
}

std::unique_ptr<Session> Session::on_machine(const PoolMachine& pool) const {
  Scenario s = scenario_;
  s.machine = pool.machine;
  s.machine_blocks = pool.blocks;
  s.machine_file = pool.file;
  return std::make_unique<Session>(s, registry_, latency_index_);
}

std::unique_ptr<Session> Session::for_pool(const EplbSpec& eplb, const std::array<MoeA2a, 4>& moe_a2a) const {
  auto s = std::unique_ptr<Session>(new Session(*this, scenario_.machine, {}));
  loader::apply_eplb(eplb, s->scenario_.model);
  s->scenario_.serving.eplb = eplb;
  s->scenario_.moe_a2a = moe_a2a;
  s->build();
  return s;
}

std::string Session::machine_block_owner() const { return machine_schema_owner(registry_, latency_name_); }

}  // namespace tessera
