#include "scenario/hardware_points.hpp"

#include "scenario/scenario_loader.hpp"  // set_machine_field

namespace tessera {

HardwarePoint hardware_point(const Sweep& sweep, const MachineSpec& base, std::uint64_t i) {
  HardwarePoint p;
  p.machine = base;
  for (const HardwareAxis& a : sweep.hardware) {
    const std::uint64_t n = a.values.size();
    const double v = a.values[static_cast<std::size_t>(i % n)];
    i /= n;
    p.values.push_back(v);
    set_machine_field(p.machine, a.path, v);
  }
  return p;
}

}  // namespace tessera
