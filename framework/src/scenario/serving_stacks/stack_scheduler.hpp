#pragma once
// A framework version's scheduling rules (docs/physics.md §12.5 "Scheduling rules"): the
// `scheduler:` block of data/frameworks.yaml read and checked, each rule a {value, source}.
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

namespace tessera::stacks_yaml {

// The `scheduler:` block of version `version` (at `path`), if any: `{order: {value:
// running_first|prefill_first, source: URL}, budget_counts: ..., victim: ..., admission: ..., and
// with admission reserve_output: new_token_ratio, ratio_min_factor, decay_steps, retract_steps,
// clip_output}`, into `v.scheduler`, its `mixed` from v.mixing (read before), the two checked
// together.
void read_scheduler(const loader::YNode& version, const std::string& path, ServingStackVersion& v,
                    loader::Diags& d);

}  // namespace tessera::stacks_yaml
