#include "scenario/sweeps/hardware_points.hpp"

#include <cmath>

#include "scenario/fields/field_access.hpp"
#include "tessera/error.hpp"

namespace tessera {

std::string_view axis_pool(const HardwareAxis& axis) {
  for (std::string_view pool : {"serving.prefill_machine", "serving.decode_machine"})
    if (axis.path.size() > pool.size() && axis.path.starts_with(pool) && axis.path[pool.size()] == '.')
      return pool;
  return {};
}

HardwarePoint hardware_point(const Sweep& sweep, const MachineSpec& base, std::uint64_t i,
                             std::string_view block_owner, std::string_view pool) {
  HardwarePoint p;
  p.machine = base;
  for (const HardwareAxis& a : sweep.hardware) {
    // This axis's value at point i (mixed radix, the first axis fastest).
    const std::uint64_t n = a.values.size();
    const double v = a.values[static_cast<std::size_t>(i % n)];
    i /= n;
    p.values.push_back(v);
    if (axis_pool(a) != pool) continue;  // another machine's axis: its value only
    if (!pool.empty()) {                 // `<pool>.<path>`: machine.<path> of the pool's machine
      const FieldPath field = resolve_machine_field("machine" + a.path.substr(pool.size()), &base);
      if (!field.error.empty()) throw InputError(field.error);
      set_field(p.machine, field, v);
      continue;
    }
    if (a.speculative) {
      if (a.path == "serving.speculative.steps")
        p.speculative_steps = std::llround(v);
      else
        p.speculative_acceptance = v;
      continue;
    }
    if (a.scenario_plugin) {
      p.plugin_params.push_back(PluginParamValue{
          .kind = a.plugin_kind, .plugin = a.plugin, .param = a.param, .value = v, .integer = a.integer});
      continue;
    }
    if (!a.plugin.empty()) {
      // A machine-block parameter: set in the block of the plugin that runs, if it is this one.
      if (a.plugin == block_owner) {
        if (a.integer)
          p.machine.efficiency.set(a.param, static_cast<std::int64_t>(std::llround(v)));
        else
          p.machine.efficiency.set(a.param, v);
      }
      continue;
    }
    const FieldPath field = resolve_machine_field(a.path, &base);
    if (!field.error.empty()) throw InputError(field.error);
    set_field(p.machine, field, v);
  }
  return p;
}

}  // namespace tessera
