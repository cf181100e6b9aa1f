#pragma once
// `serving.prefix_cache`: automatic prefix caching and the KV offload tiers a serving engine uses
// (docs/physics.md §12.7, docs/scenario-format.md "Prefix caching and KV offload"). Read by the
// field table (scenario/fields/fields_prefix_cache.cpp); checked by prefix_cache_check.cpp.
#include <cstdint>
#include <vector>

#include "tessera/error.hpp"

namespace tessera {

// The machine's host_memory tiers (tessera/machine.hpp HostMemorySpec), nearest first.
enum class OffloadTierKind : std::uint8_t { dram, ssd };

struct PrefixCacheSpec {
  bool given = false;          // the block is present
  bool enabled_given = false;  // `enabled` given (absent: the framework's default, else off)
  bool enabled = false;
  // Steady-state studies: the share of each prompt's tokens found cached (the request simulation
  // finds its own from the request stream's shared prefixes and conversations).
  double hit_ratio = 0;
  std::vector<OffloadTierKind> offload;  // the tiers KV leaving HBM goes to, in order
  SourceLocation where;                  // the `prefix_cache:` key
};

}  // namespace tessera
