#pragma once
// Maps a parallel configuration onto the machine hierarchy (docs/specification.md §2.7 "Placement and
// validity"): which
// level's links each collective crosses, how many groups share an uplink, which units are
// used, and whether the configuration is valid at all.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/workload.hpp"

namespace tessera {

inline constexpr int kMaxLevels = 8;

// The links one collective runs over. The first four fields describe the highest level its
// group spans (the flat view: the legacy ring and point-to-point use it); the arrays give the
// group's shape on every level (digit d = levels[d]) for topology-aware and hierarchical
// collectives (docs/physics.md §5-§6).
struct LinkCost {
  double bandwidth = 0;  // B/s per PE per direction at the highest level, after uplink contention
  double latency = 0;    // s per message at the highest level
  int level = 0;         // 1-based index into MachineSpec::levels; 0 = the group is one PE
  int sharing = 1;       // concurrent groups sharing one uplink at that level
  // members[d]: how many of the group's members differ in digit d (1 = none); stride[d]: the
  // distance between consecutive members in digit d (units of the level below); share[d]:
  // concurrent groups sharing the uplink of one level-d unit's parent (as `sharing`).
  std::array<std::int32_t, kMaxLevels> members{};
  std::array<std::int32_t, kMaxLevels> stride{};
  std::array<std::int32_t, kMaxLevels> share{};
};

// Why a configuration is not valid. Codes, not strings: the hot path builds no text.
enum class InvalidReason : std::uint8_t {
  none,
  tp_not_dividing_heads,      // tp must divide h_q
  tp_kv_heads_mismatch,       // tp | h_kv or h_kv | tp
  pp_exceeds_layers,          // pp <= L
  ep_without_experts,         // ep > 1 on a dense model
  ep_not_dividing_experts,    // ep | E
  ep_not_dividing_ffn_group,  // ep | f
  pe_group_exceeds_fanout,    // product of groups placed on the PE <= first-level fanout
  exceeds_machine,            // cp*tp*pp*dp <= total PEs
  exceeds_hierarchy,          // the placements need more units of the top level than exist
  tree_in_prefill,            // cp_ring_variant tree is decode-only
  placement_out_of_range,     // placement level beyond the hierarchy
  bad_knob,                   // a numeric knob < 1
};

struct Layout {
  bool valid = false;
  InvalidReason reason = InvalidReason::none;
  LinkCost tp, cp, kv_group, ffn, ep, dp, pp_hop;
  // units_used[p]: distinct units of placement level p touched (p = 0: PEs).
  std::array<std::int64_t, kMaxLevels + 1> units_used{};
  int ffn_group = 1;  // f: PEs sharing the FFN weights (tp, tp*cp or tp*cp*dp)
};

// Fills `out` for `c`; no allocation. Does not check memory (the memory model does).
TESSERA_API void compute_layout(const ModelSpec& model, const MachineSpec& machine, const Workload& workload,
                                const ParallelConfig& c, Layout& out);

// The PEs that share one expert when the expert-parallel group is smaller than the FFN shard
// group (ep < f: each expert TP-sliced over f / ep PEs): the FFN group's members that differ
// from one another only outside the EP group (its members per digit are the FFN group's divided
// by the EP group's, its strides the FFN group's times the EP group's members). Their partial
// expert outputs are summed across this group. The empty link (level 0) when ep = f.
TESSERA_API LinkCost expert_sharers(const MachineSpec& machine, const Layout& layout);

// What compute_layout() reads of a configuration: `c` with the knobs it ignores set to fixed
// values (kv_shard_mode; cp_ring_variant except in prefill, where `tree` is invalid).
// Configurations with equal keys have equal layouts for the same model, machine and workload,
// so a sweep maps groups to links once per placement (Evaluator keeps a few per thread).
TESSERA_API ParallelConfig layout_key(const Workload& workload, const ParallelConfig& c);

// Human-readable reason with the numbers involved ("tp=16 does not divide heads=12").
TESSERA_API std::string describe_invalid(InvalidReason r, const ModelSpec& model, const MachineSpec& machine,
                                         const ParallelConfig& c);

// Units of the top level the layout of `c` occupies (may exceed the top level's fanout).
TESSERA_API std::int64_t top_level_units_needed(const MachineSpec& machine, const ParallelConfig& c);

enum class GroupKind : std::uint8_t { tp, cp, dp, pp };
// PE indices (0-based, in the hierarchy's order) of the members of the group of `kind`
// containing PE 0 — for tests and reports; allocates.
TESSERA_API std::vector<std::int64_t> group_members(const MachineSpec& machine, const ParallelConfig& c,
                                                    GroupKind kind);

// Canonical configurations (docs/specification.md §2.8): knobs that make no difference take one fixed value.
TESSERA_API bool is_canonical(const ModelSpec& model, const ParallelConfig& c);
// canonical_form(canonical_class(model, c), c).
TESSERA_API ParallelConfig canonicalize(const ModelSpec& model, const ParallelConfig& c);

// All that canonicalize() reads of the model and the numeric knobs: four facts, one bit each
// (tp > h_kv, tp = 1, cp = 1, dp = 1). Configurations of one class with the same discrete
// knobs canonicalise alike, so a sweep grid canonicalises once per class (GridSpace).
inline constexpr unsigned kCanonicalClasses = 16;
TESSERA_API unsigned canonical_class(const ModelSpec& model, const ParallelConfig& c);
// `c` with its discrete knobs made canonical for class `cls` (canonical_class of c's numeric
// knobs); the numeric knobs are kept.
TESSERA_API ParallelConfig canonical_form(unsigned cls, const ParallelConfig& c);
// The FFN shard scope `s` means at cp and dp: a scope over a group of one is the narrower one
// (TP+CP+DP over one DP rank is TP+CP, TP+CP over one CP rank is TP); canonical_form's rule.
TESSERA_API FfnShardScope canonical_scope(FfnShardScope s, std::int32_t cp, std::int32_t dp);

}  // namespace tessera
