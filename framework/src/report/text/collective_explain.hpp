#pragma once
// `tessera explain`'s collectives as text: the algorithm each communication stage runs and every
// candidate collective_cost() chose from (docs/physics.md §5); their JSON:
// studies/documents/collective_document.hpp.
#include <ostream>

#include "studies/documents/collective_document.hpp"  // choice_label, stage_algorithm_label
#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/stage.hpp"

namespace tessera {

// The text block below explain's stage table: one line per collective (wrapped to `width`
// columns), the chosen candidate marked with '*'; point-to-point stages state their model.
TESSERA_API void print_stage_collectives(std::ostream& os, const StageWork& w, const Stage& s,
                                         const MachineSpec& m, std::size_t width = 100);

}  // namespace tessera
