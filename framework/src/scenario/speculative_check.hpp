#pragma once
// serving.speculative checked across the scenario (docs/scenario-format.md "Speculative
// decoding"): what it needs of the rest of the scenario, the model and the framework.
#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"

namespace tessera::loader {

// Before the framework is known: steps and exactly one acceptance form; an MTP drafter needs a
// model that ships an MTP module; the steady-state studies only (no request simulation, no
// disaggregated pools yet).
void check_speculative(const YNode& tree, const Scenario& s, const ModelSpec* model, Diags& d);
// With the framework chosen: the drafters its version runs (throws InputError).
void check_speculative_stack(const YNode& tree, const Scenario& s);

}  // namespace tessera::loader
