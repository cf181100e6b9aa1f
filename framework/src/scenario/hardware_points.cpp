#include "scenario/hardware_points.hpp"

#include <cmath>

#include "scenario/field_access.hpp"
#include "tessera/error.hpp"

namespace tessera {

HardwarePoint hardware_point(const Sweep& sweep, const MachineSpec& base, std::uint64_t i,
                             std::string_view block_owner) {
  HardwarePoint p;
  p.machine = base;
  for (const HardwareAxis& a : sweep.hardware) {
    if (a.scenario_plugin) {
      const std::uint64_t n = a.values.size();
      const double v = a.values[static_cast<std::size_t>(i % n)];
      i /= n;
      p.values.push_back(v);
      p.plugin_params.push_back(PluginParamValue{
          .kind = a.plugin_kind, .plugin = a.plugin, .param = a.param, .value = v, .integer = a.integer});
      continue;
    }
    if (!a.plugin.empty()) {
      // A machine-block parameter: set in the block of the plugin that runs, if it is this one.
      const std::uint64_t n = a.values.size();
      const double v = a.values[static_cast<std::size_t>(i % n)];
      i /= n;
      p.values.push_back(v);
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
    const std::uint64_t n = a.values.size();
    const double v = a.values[static_cast<std::size_t>(i % n)];
    i /= n;
    p.values.push_back(v);
    set_field(p.machine, field, v);
  }
  return p;
}

}  // namespace tessera
