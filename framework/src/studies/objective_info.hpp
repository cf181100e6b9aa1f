#pragma once
// A study's objective as its renderers and JSON documents read it (docs/architecture.md "The
// study façade"): plain data — name, unit, direction — with no plugin object behind it. eval's
// ObjectiveSlot keeps the plugin for the evaluator; objective_infos() copies what is shown.
#include <string>
#include <vector>

#include "eval/evaluator.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/objective.hpp"

namespace tessera {

struct ObjectiveInfo {
  std::string name;                           // the scenario's plugin name: "latency", "cost_per_mtok"
  std::string unit;                           // "s", "tok/s", "USD", "PE", "" (dimensionless)
  Direction direction = Direction::minimize;  // which way is better
};

TESSERA_API ObjectiveInfo objective_info(const ObjectiveSlot& slot);
TESSERA_API std::vector<ObjectiveInfo> objective_infos(const std::vector<ObjectiveSlot>& slots);

}  // namespace tessera
