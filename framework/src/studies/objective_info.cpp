#include "studies/objective_info.hpp"

namespace tessera {

ObjectiveInfo objective_info(const ObjectiveSlot& slot) { return {slot.name, slot.unit, slot.direction}; }

std::vector<ObjectiveInfo> objective_infos(const std::vector<ObjectiveSlot>& slots) {
  std::vector<ObjectiveInfo> out;
  out.reserve(slots.size());
  for (const ObjectiveSlot& s : slots) out.push_back(objective_info(s));
  return out;
}

}  // namespace tessera
