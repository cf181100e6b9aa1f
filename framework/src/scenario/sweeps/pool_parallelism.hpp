#pragma once
// Each disaggregated pool's own parallelism (serving.disaggregated.prefill.parallelism and
// .decode.parallelism, docs/scenario-format.md "Disaggregated pools"): the check that every
// listed value is one the sweep searches.
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"
#include "tessera/error.hpp"

namespace tessera {

// Adds a diagnostic per listed value the sweep does not hold (at the value in `tree`, the whole
// scenario's tree after overrides), naming the sweep's values.
TESSERA_API void check_pool_parallelism(const loader::YNode& tree, const Scenario& s, loader::Diags& d);

}  // namespace tessera
