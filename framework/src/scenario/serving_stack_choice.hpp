#pragma once
// A scenario's serving framework (docs/frameworks.md): `framework: NAME[@VERSION]` resolved in the
// frameworks catalog, the sweep restricted to what that version runs, the serving plugin's
// `mixing` set to the framework's, and the version's KV-cache rule with the scenario's `engine:`
// knobs.
#include <string>
#include <vector>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"

namespace tessera::loader {

// `framework:` (docs/frameworks.md): the profile from the first data root holding
// data/frameworks.yaml, the sweep restricted to it, and the aggregated serving plugin's
// `mixing` set to the framework's (a different `mixing` written is refused).
// `n` is the scenario's `framework:` value, `engine` its `engine:` mapping (nullptr when absent),
// `roots` the data roots (scenario/data_roots.hpp). Throws InputErrors on a problem.
void choose_serving_stack(const YNode& n, const YNode* engine, const std::vector<std::string>& roots,
                          const ModelSpec& model, Scenario& s);

}  // namespace tessera::loader
