#include "scenario/hardware_points.hpp"

#include "scenario/field_access.hpp"
#include "tessera/error.hpp"

namespace tessera {

HardwarePoint hardware_point(const Sweep& sweep, const MachineSpec& base, std::uint64_t i) {
  HardwarePoint p;
  p.machine = base;
  for (const HardwareAxis& a : sweep.hardware) {
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
