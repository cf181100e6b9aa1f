#pragma once
// A framework version's KV-cache rule (docs/frameworks.md "KV capacity"): the `kv_cache:` block
// of data/frameworks.yaml read and checked (the rule, its source, the version's defaults of the
// rule's knobs). The rules' knobs, their checks and the engine's rule built from a version's
// defaults are declared with the profile (stack_profile.hpp: kv_rule_knobs, kv_knob_problem,
// engine_kv_defaults, apply_kv_knob) and defined beside this reader (stack_kv_cache.cpp).
#include <string>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"

namespace tessera::stacks_yaml {

// `kv_cache: {rule: vllm|sglang|trtllm, source: URL, defaults: {KNOB: {value: V, source: URL}}}`.
void read_kv_cache(const loader::YNode& n, const std::string& path, ServingStackKvCache& kv,
                   loader::Diags& d);

}  // namespace tessera::stacks_yaml
