#pragma once
// Each disaggregated pool's own parallelism (serving.disaggregated.prefill.parallelism and
// .decode.parallelism, docs/scenario-format.md "Disaggregated pools"): the check that every
// listed value is one the sweep searches.
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"
#include "tessera/error.hpp"

namespace tessera {

// Each pool's lists checked against the sweep the framework and the model left: throws InputErrors
// naming every value a pool lists that the search does not hold (at the value in `tree`, the
// scenario's tree after overrides), which would otherwise leave a pool empty without a word.
TESSERA_API void check_pool_parallelism(const loader::YNode& tree, const Scenario& s);

}  // namespace tessera
