#include "scenario/sweeps/plugin_axes.hpp"

#include <algorithm>

#include "core/text/nearest_name.hpp"
#include "host/plugin_roles.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera {

namespace {

std::vector<std::string> all_names(const PluginRegistry& registry) {
  std::vector<std::string> out;
  for (const PluginKind k : kAllPluginKinds)
    for (auto& n : registry.names(k)) out.push_back(std::move(n));
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool numeric(ParamType t) {
  return t == ParamType::integer || t == ParamType::real || t == ParamType::quantity;
}

// Types the values of `a` (texts as written) by `spec`; problems appended.
void type_values(HardwareAxis& a, const ParamSpec& spec, const std::string& kp,
                 std::vector<Diagnostic>& diags) {
  a.integer = spec.type == ParamType::integer;
  a.dimension = spec.dimension;
  for (std::size_t i = 0; i < a.texts.size(); ++i) {
    RawParam r;
    r.key = a.param;
    r.text = a.texts[i];
    r.where = a.value_where[i];
    const std::size_t before = diags.size();
    const ParamSet v = validate_params(&spec, 1, {r}, kp, a.value_where[i], diags);
    if (diags.size() == before) a.values[i] = v.real(a.param);
  }
}

std::vector<std::string> choice_names(const std::vector<PluginChoice>& choices) {
  std::vector<std::string> out;
  for (const auto& c : choices) out.push_back(c.name);
  return out;
}

void resolve_plugin_axis(HardwareAxis& a, const PluginChoices& plugins, const PluginRegistry& registry,
                         std::vector<Diagnostic>& diags) {
  const std::string kp = "sweep.hardware." + a.path;
  if (a.plugin_kind == PluginKind::latency || a.plugin_kind == PluginKind::objective) {
    const auto& list = a.plugin_kind == PluginKind::latency ? plugins.latency : plugins.objectives;
    const std::vector<std::string> names = choice_names(list);
    if (std::find(names.begin(), names.end(), a.plugin) == names.end()) {
      const std::string field =
          a.plugin_kind == PluginKind::latency ? "plugins.latency" : "plugins.objectives";
      diags.push_back({a.where, kp + ": the scenario's " + field + " has no plugin '" + a.plugin + "'" +
                                    did_you_mean(a.plugin, names) + "; it lists " + joined(names)});
      return;
    }
  } else {
    a.plugin = a.plugin_kind == PluginKind::memory ? plugins.memory.name : plugins.search.name;
  }
  const LoadedPlugin* p = registry.find(a.plugin_kind, a.plugin);
  if (!p) return;  // reported at the scenario's plugin name (check_scenario_plugins, Session)
  const PluginDescriptor& d = *p->descriptor;
  const ParamSpec* spec = nullptr;
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < d.param_count; ++i) {
    names.emplace_back(d.params[i].name);
    if (names.back() == a.param) spec = &d.params[i];
  }
  if (!spec) {
    bool machine_param = false;
    for (std::uint32_t i = 0; i < d.machine_param_count; ++i)
      machine_param |= a.param == d.machine_params[i].name;
    diags.push_back(
        {a.where,
         kp + ": " + p->id() + " has no parameter '" + a.param + "'" +
             (machine_param
                  ? "; '" + a.param + "' is a parameter of its machine block, swept as machine.plugins." +
                        a.plugin + "." + a.param
                  : did_you_mean(a.param, names) + (names.empty() ? std::string("; it takes none")
                                                                  : "; its parameters: " + joined(names)))});
    return;
  }
  if (!numeric(spec->type)) {
    diags.push_back({a.where, kp + ": parameter '" + a.param + "' of " + p->id() +
                                  " is not a number; only numbers can be swept"});
    return;
  }
  type_values(a, *spec, kp, diags);
}

// The latency plugin that reads the block under `a.block_key`: the first of the scenario's latency
// models (or their fallbacks) whose descriptor declares that key; else any installed one.
bool resolve_block_key(HardwareAxis& a, const PluginChoices& plugins, const PluginRegistry& registry,
                       std::vector<Diagnostic>& diags) {
  const auto declares = [&](const std::string& name) {
    const LoadedPlugin* p = registry.find(PluginKind::latency, name);
    return p && p->descriptor->machine_block_key && a.block_key == p->descriptor->machine_block_key;
  };
  for (const PluginChoice& c : plugins.latency) {
    std::string name = c.name;
    for (int depth = 0; depth <= kMaxFallbackDepth && !name.empty(); ++depth) {
      if (declares(name)) {
        a.plugin = name;
        return true;
      }
      name = fallback_of(registry, name);
    }
  }
  for (const std::string& name : registry.names(PluginKind::latency))
    if (declares(name)) {
      a.plugin = name;
      return true;
    }
  diags.push_back({a.where, "sweep.hardware." + a.path + ": no installed latency plugin reads a machine's `" +
                                a.block_key + ":` block"});
  return false;
}

void resolve_axis(HardwareAxis& a, const PluginRegistry& registry, std::vector<Diagnostic>& diags) {
  const std::string kp = "sweep.hardware." + a.path;
  const LoadedPlugin* p = registry.find(PluginKind::latency, a.plugin);
  if (!p) {
    diags.push_back({a.where, kp + ": no latency plugin named '" + a.plugin + "' is installed" +
                                  did_you_mean(a.plugin, registry.names(PluginKind::latency)) +
                                  "; machine blocks belong to latency plugins"});
    return;
  }
  const PluginDescriptor& d = *p->descriptor;
  const ParamSpec* spec = nullptr;
  std::vector<std::string> names;
  for (std::uint32_t i = 0; i < d.machine_param_count; ++i) {
    names.emplace_back(d.machine_params[i].name);
    if (names.back() == a.param) spec = &d.machine_params[i];
  }
  if (!spec) {
    diags.push_back({a.where, kp + ": " + p->id() + " has no machine parameter '" + a.param + "'" +
                                  did_you_mean(a.param, names) +
                                  (names.empty() ? std::string("; it reads none")
                                                 : "; its machine parameters: " + joined(names))});
    return;
  }
  if (!numeric(spec->type)) {
    diags.push_back({a.where, kp + ": machine parameter '" + a.param + "' of " + p->id() +
                                  " is not a number; only numbers can be swept"});
    return;
  }
  type_values(a, *spec, kp, diags);
}

}  // namespace

void resolve_plugin_axes(Sweep& sweep, const PluginChoices& plugins, const PluginRegistry& registry,
                         std::vector<Diagnostic>& diagnostics) {
  for (HardwareAxis& a : sweep.hardware) {
    if (a.scenario_plugin)
      resolve_plugin_axis(a, plugins, registry, diagnostics);
    else if (!a.block_key.empty() &&
             (!a.plugin.empty() || resolve_block_key(a, plugins, registry, diagnostics)))
      resolve_axis(a, registry, diagnostics);
    else if (!a.plugin.empty())
      resolve_axis(a, registry, diagnostics);
  }
}

const ParamSpec* plugin_param_spec(const PluginRegistry& registry, PluginKind kind, const std::string& plugin,
                                   const std::string& param) {
  const LoadedPlugin* p = registry.find(kind, plugin);
  if (!p) return nullptr;
  for (std::uint32_t i = 0; i < p->descriptor->param_count; ++i)
    if (param == p->descriptor->params[i].name) return &p->descriptor->params[i];
  return nullptr;
}

void check_machine_blocks(const std::vector<MachineBlock>& blocks, const std::string& machine_file,
                          const PluginRegistry& registry, std::vector<Diagnostic>& errors,
                          std::vector<Diagnostic>& warnings) {
  for (const MachineBlock& b : blocks) {
    // A block under a top-level key (`efficiency:`) is read, and checked, by the scenario's latency
    // model that declares the key (eval/plugin_check.cpp).
    if (!b.key.empty()) continue;
    if (registry.find(PluginKind::latency, b.plugin)) {
      if (registry.refusal(PluginKind::latency, b.plugin)) continue;  // reported at the plugin's name
      try {
        registry.machine_block(b.plugin, b.params, b.label, machine_file);
      } catch (const InputErrors& e) {
        for (const auto& x : e.diagnostics()) errors.push_back(x);
      }
      continue;
    }
    // A miss: only now is every library listed (a lookup that hits loads only its own).
    if (registry.names(PluginKind::latency).empty()) continue;  // nothing installed to check against
    bool other_kind = false;
    for (const PluginKind k : kAllPluginKinds)
      if (k != PluginKind::latency && registry.find(k, b.plugin)) other_kind = true;
    if (other_kind) {
      errors.push_back({b.where, b.label + ": '" + b.plugin +
                                     "' is not a latency plugin; only latency plugins read machine blocks"});
      continue;
    }
    const std::vector<std::string> names = all_names(registry);
    if (!nearest_names(b.plugin, names).empty()) {
      errors.push_back(
          {b.where, b.label + ": no plugin named '" + b.plugin + "'" + did_you_mean(b.plugin, names)});
      continue;
    }
    warnings.push_back({b.where, b.label + ": no plugin named '" + b.plugin +
                                     "' is installed; its block is not checked (it is read only when that "
                                     "plugin runs)"});
  }
}

}  // namespace tessera
