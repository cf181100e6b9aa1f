#pragma once
// A framework version's speculative decoding in data/frameworks.yaml: `speculative: {value: [mtp,
// eagle], source}`, the drafters it runs (docs/physics.md §12.8, docs/frameworks.md). Read by
// stack_profile.cpp; the scenario's serving.speculative is checked against it.
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

namespace tessera::stacks_yaml {

// Version `version`'s `speculative:` (at `path`), if present, into v.speculative.
void read_speculative(const YNode& version, const std::string& path, ServingStackVersion& v, Diags& d);

}  // namespace tessera::stacks_yaml
