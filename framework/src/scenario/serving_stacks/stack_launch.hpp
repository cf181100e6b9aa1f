#pragma once
// A configuration as a framework's launch flags and back, both through the profile's flag
// table (data/frameworks.yaml, docs/frameworks.md "Flags"): launch_flags() writes what
// --deploy prints; parse_launch() reads a written launch script back to the knobs it sets
// (the acceptance test that every launch line maps back to its configuration).
#include <cstdint>
#include <string>
#include <vector>

#include "scenario/serving_stacks/stack_restriction.hpp"
#include "tessera/export.hpp"

namespace tessera {

struct LaunchFlag {
  const ServingStackFlag* flag = nullptr;
  std::string value;  // "" for a switch
};

// Whether `flag` is written for `p`: every condition of its `when:` holds (formats included).
TESSERA_API bool flag_applies(const ServingStackFlag& flag, const DeployPoint& p, const ModelSpec& model,
                              const ServingStackProfile& f);

// The flags of `p` in the profile's order (command-line flags and `yaml:` entries alike).
TESSERA_API std::vector<LaunchFlag> launch_flags(const ServingStackProfile& f, const ModelSpec& model,
                                                 const DeployPoint& p);

// What a launch script sets, read back. Knobs no flag names stay 1 (batch and token budget 0).
struct ParsedLaunch {
  DeployPoint point;
  std::int64_t dcp = 1;              // the KV split degree (vLLM's decode context parallelism)
  bool attention_dp = false;         // ffn_shard_scope TP+CP+DP
  std::int64_t instances = 1;        // `# instances: N`
  std::vector<std::string> unknown;  // flags the profile does not list
};
// `script`: the command (lines after `#` comments, `\` continuations, single-quoted values);
// `yaml`: the config file's `key: value` lines ("" when none).
TESSERA_API ParsedLaunch parse_launch(const ServingStackProfile& f, const std::string& script,
                                      const std::string& yaml);

}  // namespace tessera
