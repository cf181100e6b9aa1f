#pragma once
// The points of a scenario's sweep.hardware grid (SPEC §5 joint exploration): the product of
// its axes, the first axis varying fastest, each point the base machine with the axes' values
// set. Without axes: one point, the base machine. `tessera explore` walks these; the search
// tests compare searches on each of them.
#include <vector>

#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct HardwarePoint {
  std::vector<double> values;  // one per axis, SI
  MachineSpec machine;
};

TESSERA_API std::vector<HardwarePoint> hardware_points(const Sweep& sweep, const MachineSpec& base);

}  // namespace tessera
