#pragma once
// The points of a scenario's sweep.hardware grid (docs/specification.md §5 "joint exploration"): the product
// of
// its axes, the first axis varying fastest, each point the base machine with the axes' values
// set. Without axes: one point, the base machine. `tessera explore` walks them one at a time
// (a grid holds up to the limit hardware.points = 10^5 of them: never all machines at once);
// the search tests compare searches on each.
#include <cstdint>
#include <string_view>
#include <vector>

#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct HardwarePoint {
  std::vector<double> values;  // one per axis, SI
  MachineSpec machine;
  std::vector<PluginParamValue> plugin_params;  // the scenario-plugin axes' values at this point
  // serving.speculative.steps / .acceptance axes' values at this point (< 0: no such axis).
  std::int64_t speculative_steps = -1;
  double speculative_acceptance = -1;
  bool speculative() const { return speculative_steps >= 0 || speculative_acceptance >= 0; }
};

// Point i of the grid, 0 <= i < sweep_hardware_points(sweep) (scenario/sweeps/sweep_size.hpp).
// `block_owner`: the latency plugin whose machine block `base.efficiency` holds; a
// machine.plugins.<plugin>.<param> axis sets that parameter only when <plugin> is it. A
// scenario-plugin axis (plugins.<kind>...) is returned in `plugin_params` (Session::with_point).
// `pool`: "" sets the axes of `machine` (and returns the plugin axes); "serving.prefill_machine" /
// "serving.decode_machine" sets only the axes named `<pool>.<machine path>` on `base`, that
// pool's own machine. `values` holds every axis's value either way.
TESSERA_API HardwarePoint hardware_point(const Sweep& sweep, const MachineSpec& base, std::uint64_t i,
                                         std::string_view block_owner = {}, std::string_view pool = {});

// The pool machine an axis names ("serving.prefill_machine", "serving.decode_machine"), or "".
TESSERA_API std::string_view axis_pool(const HardwareAxis& axis);

}  // namespace tessera
