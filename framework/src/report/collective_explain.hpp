#pragma once
// `tessera explain`'s collectives: the algorithm each communication stage runs and every
// candidate collective_cost() chose from (docs/physics.md §5), for people and programs.
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/physics/collectives.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/stage.hpp"

namespace tessera {

// "one_shot", "nccl_ring/LL", "in_network", "hierarchical(nccl_tree/LL)"; "" for no algorithm.
TESSERA_API std::string choice_label(const CollectiveChoice& c);
// The stage's recorded algorithm (its slowest collective's), "" when it has none.
TESSERA_API std::string stage_algorithm_label(const Stage& s);

// [{kind, ranks, bytes, algorithm, protocol, shape, seconds, candidates: [...]}] for the
// collectives of `w` priced at the stage's recorded rates; candidates fastest first.
TESSERA_API nlohmann::json stage_collectives_json(const StageWork& w, const Stage& s, const MachineSpec& m);

// The text block below explain's stage table: one line per collective (wrapped to `width`
// columns), the chosen candidate marked with '*'; point-to-point stages state their model.
TESSERA_API void print_stage_collectives(std::ostream& os, const StageWork& w, const Stage& s,
                                         const MachineSpec& m, std::size_t width = 100);

}  // namespace tessera
