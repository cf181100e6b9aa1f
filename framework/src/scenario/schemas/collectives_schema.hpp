#pragma once
// A machine level's `collectives:` block (docs/scenario-format.md "Collectives"): the fabric
// kind whose documented defaults apply, the algorithms allowed, in-network reduction, and any
// constant overridden (docs/physics.md §5).
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "tessera/machine.hpp"

namespace tessera::loader {

// Fills `level.collectives` from `block` (nullptr: no block, the defaults of the fabric the
// level's position implies: the first level nvlink, the others network). `index`: the level's
// position, innermost first.
void parse_level_collectives(const YNode* block, const std::string& path, std::size_t index, LevelSpec& level,
                             Diags& d);

// The fabric a level without `fabric:` is assumed to be (what validate warns about).
Fabric default_fabric(std::size_t index);

}  // namespace tessera::loader
