#pragma once
// serving.prefix_cache and serving.requests.conversation checked across the scenario
// (docs/scenario-format.md "Prefix caching and KV offload"): what the keys need of the rest of the
// scenario, the machine and the framework.
#include <cstdint>

#include "scenario/readers/yaml_tree.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

// Whether the scenario's engine caches prefixes: serving.prefix_cache.enabled, else its framework's
// default (data/frameworks.yaml `prefix_caching`), else off.
TESSERA_API bool prefix_caching_on(const Scenario& s);

// Of a prompt of `input` tokens, those the steady state finds cached: hit_ratio x input, rounded,
// at most input - 1 (the last token is always computed, so that one is sampled); 0 with caching off.
TESSERA_API std::int64_t cached_prefix(const Scenario& s, std::int64_t input);

// The machine's tier for `t` (capacity 0: the machine has none).
TESSERA_API const HostTierSpec& host_tier(const MachineSpec& m, OffloadTierKind t);
TESSERA_API const char* offload_tier_name(OffloadTierKind t);  // "dram", "ssd"

namespace loader {

// Before the framework is known: conversations need a drawn stream on aggregated replicas; the
// offload tiers need the request simulation, caching not turned off, the machine's tier, nearest
// first; a hit ratio is the steady state's.
void check_prefix_cache(const YNode& tree, const Scenario& s, const MachineSpec* machine, Diags& d);
// With the framework chosen: the tiers its version's offloading reaches (throws InputError).
void check_prefix_cache_stack(const YNode& tree, const Scenario& s);

}  // namespace loader

}  // namespace tessera
