#pragma once
// One point of the parallelism space: the five numeric knobs and the discrete ones (docs/specification.md
// §2.5).
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tessera/export.hpp"

namespace tessera {

struct MachineSpec;

enum class KvShardMode : std::uint8_t { split, replicate };
enum class FfnShardScope : std::uint8_t { tp, tp_cp, tp_cp_dp };
enum class CpRingVariant : std::uint8_t { kv, qoml, tree };

TESSERA_API const char* kv_shard_mode_name(KvShardMode m);      // "split"
TESSERA_API const char* ffn_shard_scope_name(FfnShardScope s);  // "TP+CP"
TESSERA_API const char* cp_ring_variant_name(CpRingVariant v);  // "qoml"

// The knobs of a configuration by name, in ParallelConfig's order (the `explain` string's keys).
inline constexpr std::array<const char*, 10> kParallelKnobs = {"cp",
                                                               "tp",
                                                               "pp",
                                                               "dp",
                                                               "ep",
                                                               "kv_shard_mode",
                                                               "ffn_shard_scope",
                                                               "tp_placement",
                                                               "cp_placement",
                                                               "cp_ring_variant"};

struct ParallelConfig {
  std::int32_t cp = 1, tp = 1, pp = 1, dp = 1, ep = 1;
  KvShardMode kv_shard_mode = KvShardMode::split;
  FfnShardScope ffn_shard_scope = FfnShardScope::tp;
  // Placement levels: 0 = members are PEs of one first-level unit, p >= 1 = members are
  // distinct level-p units (see MachineSpec::placement_index).
  std::int8_t tp_placement = 0;
  std::int8_t cp_placement = 1;
  CpRingVariant cp_ring_variant = CpRingVariant::kv;

  // cp*tp*pp*dp, saturated at INT64_MAX (four degrees of up to 10^6 would wrap an int64).
  std::int64_t pes() const {
    std::int64_t a = 0, b = 0, r = 0;
    if (__builtin_mul_overflow(std::int64_t{cp}, std::int64_t{tp}, &a) ||
        __builtin_mul_overflow(a, std::int64_t{pp}, &b) || __builtin_mul_overflow(b, std::int64_t{dp}, &r))
      return INT64_MAX;
    return r;
  }
  bool operator==(const ParallelConfig&) const = default;
};

// "cp=8,tp=4,pp=1,dp=1,ep=1,kv_shard_mode=split,..." with the machine's placement names.
TESSERA_API std::string format_config(const ParallelConfig& c, const MachineSpec& m);
// Parses the same syntax; keys left out keep the defaults above (cp_placement defaults to
// the first level). Throws InputError naming the bad key or value and the nearest valid one.
TESSERA_API ParallelConfig parse_config(std::string_view text, const MachineSpec& m);

}  // namespace tessera

// For unordered sets and maps of configurations: every field mixed in (equal configurations,
// operator== above, hash equally).
template <>
struct std::hash<tessera::ParallelConfig> {
  std::size_t operator()(const tessera::ParallelConfig& c) const noexcept {
    std::uint64_t h = 1469598103934665603ull;
    const auto mix = [&h](std::uint64_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
    mix(static_cast<std::uint32_t>(c.cp));
    mix(static_cast<std::uint32_t>(c.tp));
    mix(static_cast<std::uint32_t>(c.pp));
    mix(static_cast<std::uint32_t>(c.dp));
    mix(static_cast<std::uint32_t>(c.ep));
    mix((static_cast<std::uint64_t>(c.kv_shard_mode) << 0) |
        (static_cast<std::uint64_t>(c.ffn_shard_scope) << 8) |
        (static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.tp_placement)) << 16) |
        (static_cast<std::uint64_t>(static_cast<std::uint8_t>(c.cp_placement)) << 24) |
        (static_cast<std::uint64_t>(c.cp_ring_variant) << 32));
    return static_cast<std::size_t>(h);
  }
};
