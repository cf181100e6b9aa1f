#include "scenario/hardware_points.hpp"

#include "scenario/scenario_loader.hpp"  // set_machine_field

namespace tessera {

std::vector<HardwarePoint> hardware_points(const Sweep& sweep, const MachineSpec& base) {
  const auto& axes = sweep.hardware;
  std::vector<HardwarePoint> out;
  for (const auto& a : axes)
    if (a.values.empty()) return out;
  std::vector<std::size_t> idx(axes.size(), 0);
  for (;;) {
    HardwarePoint p;
    p.machine = base;
    for (std::size_t a = 0; a < axes.size(); ++a) {
      p.values.push_back(axes[a].values[idx[a]]);
      set_machine_field(p.machine, axes[a].path, axes[a].values[idx[a]]);
    }
    out.push_back(std::move(p));
    std::size_t a = 0;
    while (a < axes.size() && ++idx[a] == axes[a].values.size()) idx[a++] = 0;
    if (a == axes.size()) break;
  }
  return out;
}

}  // namespace tessera
