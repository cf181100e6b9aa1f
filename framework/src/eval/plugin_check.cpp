#include "eval/plugin_check.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "host/machine_blocks.hpp"
#include "host/plugin_roles.hpp"
#include "scenario/sweeps/plugin_axes.hpp"

namespace tessera {

void check_scenario_plugins(const Scenario& s, const PluginRegistry& registry, MissingKind missing,
                            std::vector<Diagnostic>& diags) {
  const auto check = [&](PluginKind kind, const PluginChoice& c) {
    if (missing == MissingKind::warn && !registry.find(kind, c.name) && registry.names(kind).empty()) {
      spdlog::warn("no {} plugins found: '{}' not checked", plugin_kind_name(kind), c.name);
      return;
    }
    registry.check_choice(kind, c, diags);
  };
  for (const auto& c : s.plugins.latency) check(PluginKind::latency, c);
  check(PluginKind::memory, s.plugins.memory);
  check(PluginKind::search, s.plugins.search);
  for (const auto& c : s.plugins.objectives) check(PluginKind::objective, c);
  if (s.workload.mode == Mode::serve) check(PluginKind::serving, s.plugins.serving);
  if (s.workload.mode == Mode::serve && !s.plugins.scheduler.name.empty())
    check(PluginKind::scheduler, s.plugins.scheduler);
  // The machine block each latency model found reads (`plugins.<name>`, the key its descriptor
  // declares, or its fallback's; an unknown or refused model was reported at its name above, not
  // at the machine file), and no block given twice under both names.
  const auto check_block = [&](const std::string& name, const MachineBlock* block) {
    try {
      registry.machine_block(name, block ? block->params : std::vector<RawParam>{},
                             block ? block->label : "machine.plugins." + name, s.machine_file);
    } catch (const InputErrors& e) {
      for (const auto& d : e.diagnostics()) diags.push_back(d);
    } catch (const InputError& e) {
      diags.push_back(Diagnostic{SourceLocation{s.machine_file, 0, 0}, e.what()});
    }
  };
  check_block_aliases(registry, s.machine_blocks, diags);
  std::vector<const MachineBlock*> read;
  for (const auto& c : s.plugins.latency) {
    if (!registry.find(PluginKind::latency, c.name) || registry.refusal(PluginKind::latency, c.name))
      continue;
    try {
      const MachineBlock* block = machine_block_for(registry, s.machine_blocks, c.name);
      read.push_back(block);
      check_block(c.name, block);
    } catch (const InputErrors&) {
      // A block given under its name and its key: check_block_aliases above reported it.
    }
  }
  // A block under a top-level key that no latency model of the scenario reads (`efficiency:` on a
  // roofline scenario) is still checked, against the installed plugin that declares the key.
  for (const MachineBlock& b : s.machine_blocks) {
    if (b.key.empty() || std::find(read.begin(), read.end(), &b) != read.end()) continue;
    for (const std::string& name : registry.names(PluginKind::latency)) {
      const LoadedPlugin* p = registry.find(PluginKind::latency, name);
      if (p && p->descriptor->machine_block_key && b.key == p->descriptor->machine_block_key) {
        check_block(name, &b);
        break;
      }
    }
  }
  // Plugin-typed axes of sweep.hardware (machine blocks, scenario plugins' parameters).
  Sweep sweep = s.sweep;
  resolve_plugin_axes(sweep, s.plugins, registry, diags);
}

void require_scenario_plugins(const Scenario& scenario, const PluginRegistry& registry) {
  std::vector<Diagnostic> diags;
  check_scenario_plugins(scenario, registry, MissingKind::error, diags);
  // A machine block for no installed plugin: misspelled (a near name) is an error, as in
  // `tessera validate`; for a plugin not installed here, a warning.
  std::vector<Diagnostic> warnings;
  if (diags.empty())
    check_machine_blocks(scenario.machine_blocks, scenario.machine_file, registry, diags, warnings);
  for (const Diagnostic& w : warnings) spdlog::warn("{}", w.format());
  if (!diags.empty()) throw InputErrors(std::move(diags));
}

}  // namespace tessera
