// A plugin's roles, checked at load and read by the host (host/plugin_roles.hpp).
#include "host/plugin_roles.hpp"

#include <algorithm>
#include <cstring>

#include "host/plugin_registry.hpp"

namespace tessera {

namespace {

bool declares(const ParamSpec* specs, std::uint32_t count, const char* name) {
  for (std::uint32_t i = 0; i < count; ++i)
    if (specs[i].name && std::strcmp(specs[i].name, name) == 0) return true;
  return false;
}

void fit_problems(const PluginDescriptor& d, std::vector<std::string>& problems) {
  if (d.fit_count > 0 && !d.fit) problems.emplace_back("fit_count is set but fit is null");
  if (!d.fit) return;
  for (std::uint32_t i = 0; i < d.fit_count; ++i) {
    const FitSpec& f = d.fit[i];
    const std::string at = "fit[" + std::to_string(i) + "]";
    if (!f.name) {
      problems.push_back(at + ": no name");
      continue;
    }
    const bool machine = f.owner == FitOwner::machine_block;
    if (!machine && f.owner != FitOwner::scenario)
      problems.push_back(at + " '" + f.name + "': unknown owner");
    if (f.scale != FitScale::logit && f.scale != FitScale::log_us && f.scale != FitScale::log)
      problems.push_back(at + " '" + f.name + "': unknown scale");
    if (!(f.lo < f.hi)) problems.push_back(at + " '" + f.name + "': the range is empty (lo >= hi)");
    const bool found = machine ? declares(d.machine_params, d.machine_param_count, f.name)
                               : declares(d.params, d.param_count, f.name);
    if (!found)
      problems.push_back(at + " '" + f.name + "': not one of its " +
                         (machine ? "machine parameters" : "parameters"));
  }
}

// `plugin`'s block given both as `plugins.<plugin>` (`own`) and under the key it declares.
Diagnostic given_twice(const MachineBlock& own, const std::string& plugin, const char* key) {
  return {own.where, own.label + ": latency/" + plugin + "'s block is given twice (here and as `" + key +
                         ":`); keep one"};
}

const PluginDescriptor* latency_descriptor(const PluginRegistry& registry, const std::string& name) {
  const LoadedPlugin* p = registry.find(PluginKind::latency, name);
  return p ? p->descriptor : nullptr;
}

}  // namespace

std::string role_problems(const PluginDescriptor& d) {
  std::vector<std::string> problems;
  if (d.roles & ~kKnownRoles) problems.emplace_back("unknown role bits in roles");
  const bool any = d.machine_block_key || d.fallback || d.create_with_fallback || d.roles || d.fit_count;
  if (any && d.kind != PluginKind::latency) problems.emplace_back("only latency plugins declare roles");
  if (d.fallback && !d.create_with_fallback)
    problems.emplace_back("a fallback without create_with_fallback (the factory that takes it)");
  if (d.create_with_fallback && !d.fallback) problems.emplace_back("create_with_fallback without a fallback");
  if (d.fallback && d.name && std::strcmp(d.fallback, d.name) == 0)
    problems.emplace_back("it falls back on itself");
  if (d.machine_block_key && std::find(std::begin(kMachineBlockKeys), std::end(kMachineBlockKeys),
                                       d.machine_block_key) == std::end(kMachineBlockKeys))
    problems.push_back(std::string("machine_block_key '") + d.machine_block_key +
                       "' is no machine-file key for a block (known: efficiency)");
  fit_problems(d, problems);
  std::string s;
  for (const auto& p : problems) s += (s.empty() ? "" : "; ") + p;
  return s;
}

std::string fallback_of(const PluginRegistry& registry, const std::string& name) {
  const PluginDescriptor* d = latency_descriptor(registry, name);
  return d && d->fallback ? std::string(d->fallback) : std::string();
}

const MachineBlock* machine_block_for(const PluginRegistry& registry, const std::vector<MachineBlock>& blocks,
                                      const std::string& name) {
  std::string plugin = name;
  for (int depth = 0; depth <= kMaxFallbackDepth && !plugin.empty(); ++depth) {
    const MachineBlock* own = find_machine_block(blocks, plugin);
    const PluginDescriptor* d = latency_descriptor(registry, plugin);
    const MachineBlock* keyed =
        d && d->machine_block_key ? find_keyed_block(blocks, d->machine_block_key) : nullptr;
    if (own && keyed) throw InputErrors({given_twice(*own, plugin, d->machine_block_key)});
    if (own) return own;
    if (keyed) return keyed;
    if (!d) return nullptr;
    plugin = d->fallback ? d->fallback : "";
  }
  return nullptr;
}

std::string machine_schema_owner(const PluginRegistry& registry, const std::string& name) {
  std::string plugin = name;
  for (int depth = 0; depth <= kMaxFallbackDepth; ++depth) {
    const PluginDescriptor* d = latency_descriptor(registry, plugin);
    if (!d) return name;
    if (d->machine_param_count > 0) return plugin;
    if (!d->fallback) return name;
    plugin = d->fallback;
  }
  return name;
}

std::string machine_block_spelling(const PluginRegistry& registry, const std::string& name) {
  const PluginDescriptor* d = latency_descriptor(registry, machine_schema_owner(registry, name));
  if (d && d->machine_block_key) return d->machine_block_key;
  return "plugins." + name;
}

bool has_role(const PluginRegistry& registry, const std::string& name, PluginRole role) {
  const PluginDescriptor* d = latency_descriptor(registry, name);
  return d && (d->roles & role) != 0;
}

void check_block_aliases(const PluginRegistry& registry, const std::vector<MachineBlock>& blocks,
                         std::vector<Diagnostic>& diagnostics) {
  for (const MachineBlock& b : blocks) {
    if (!b.key.empty()) continue;
    const PluginDescriptor* d = latency_descriptor(registry, b.plugin);
    if (!d || !d->machine_block_key || !find_keyed_block(blocks, d->machine_block_key)) continue;
    diagnostics.push_back(given_twice(b, b.plugin, d->machine_block_key));
  }
}

}  // namespace tessera
