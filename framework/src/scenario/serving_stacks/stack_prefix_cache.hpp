#pragma once
// A framework version's prefix caching and KV offload (docs/physics.md §12.7, docs/frameworks.md
// "Prefix caching and KV offload"): `prefix_caching: {value: true|false, source}` (on by default
// or not) and `kv_offload: {value: [dram, ssd], write: through|on_eviction, source}` (the tiers
// its offloading reaches, and when KV is copied to them) of data/frameworks.yaml.
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

namespace tessera::stacks_yaml {

// Both keys of version `version` (at `path`), if present, into v.prefix_caching and v.kv_offload.
void read_prefix_cache(const loader::YNode& version, const std::string& path, ServingStackVersion& v,
                       loader::Diags& d);

}  // namespace tessera::stacks_yaml
