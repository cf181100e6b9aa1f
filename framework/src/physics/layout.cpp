// Placement of groups on the machine hierarchy (docs/specification.md §2.7 "Placement and validity");
// docs/physics.md
// "Mapping groups to links". The PE index is a mixed-radix number whose digit p counts
// level-p units inside one level-(p+1) unit (digit 0: PEs in a first-level unit). Groups
// take factors of the digits' capacities from the inside out: groups placed on the PE,
// then on each level, then dp, then pp outermost. A group crosses the links of the level
// above its highest digit.
#include "tessera/physics/layout.hpp"

#include <algorithm>
#include <array>

namespace tessera {

namespace {

enum Group { kTp, kCp, kDp, kPp, kGroups };

// Only the first n entries of capacity and of each factor row are set and read: make_digits
// sets capacity, place() every group's row. Left uninitialised beyond n on purpose (zeroing
// all of them cost ~10 % of a configuration's evaluation).
struct Digits {
  int n = 0;  // number of digits = number of levels
  std::array<std::int64_t, kMaxLevels> capacity;
  std::array<std::array<std::int64_t, kMaxLevels>, kGroups> factor;
  std::array<int, kGroups> order{};
  bool overflow = false;  // a group needs more units than the hierarchy holds
};

std::int64_t largest_divisor_at_most(std::int64_t n, std::int64_t cap) {
  for (std::int64_t g = std::min(n, cap); g >= 2; --g)
    if (n % g == 0) return g;
  return 1;
}

// Gives group `g` of `size` members, starting at digit `start`; the top digit absorbs any rest
// (the machine-size rule decides validity).
void place(Digits& dg, int g, std::int64_t size, int start) {
  for (int d = 0; d < dg.n; ++d) dg.factor[g][d] = 1;
  std::int64_t rest = size;
  for (int d = start; d < dg.n && rest > 1; ++d) {
    if (d == dg.n - 1) {
      // The top digit takes the rest; more than it holds cannot be laid out.
      if (rest > dg.capacity[d]) dg.overflow = true;
      dg.factor[g][d] = rest;
      dg.capacity[d] = std::max<std::int64_t>(1, dg.capacity[d] / rest);
      rest = 1;
      break;
    }
    const std::int64_t take = largest_divisor_at_most(rest, dg.capacity[d]);
    if (take > 1) {
      dg.factor[g][d] = take;
      dg.capacity[d] /= take;
      rest /= take;
    }
  }
}

// The flat view of `lc` at digit hd (0-based): that level's latency and per-PE bandwidth after
// `share` groups divide its uplink.
void set_flat_view(LinkCost& lc, const MachineSpec& m, int hd, std::int64_t share) {
  const LevelSpec& lv = m.levels[static_cast<std::size_t>(hd)];
  lc.level = hd + 1;
  lc.latency = lv.latency;
  lc.sharing = static_cast<int>(share);
  lc.bandwidth = lv.link_bw;
  if (lv.uplink_bw > 0) lc.bandwidth = std::min(lv.link_bw, lv.uplink_bw / static_cast<double>(share));
}

// How many of dg.order's groups come before the first of `groups`: the groups whose factors
// at digit d make the distance between consecutive members of `groups` there (their stride).
int groups_inside(const Digits& dg, std::initializer_list<int> groups) {
  int k = 0;
  for (int o : dg.order) {
    for (int g : groups)
      if (g == o) return k;
    ++k;
  }
  return k;
}

// The group's shape per digit: members[d]; stride[d], the product at digit d of the factors of
// the groups placed inside `groups`; share[d], the concurrent groups whose traffic leaves one
// unit of digit d through its uplink (the active PEs below d over one group's members there).
void fill_shape(LinkCost& lc, const Digits& dg, std::initializer_list<int> groups) {
  const int inside = groups_inside(dg, groups);
  std::int64_t active = 1, own = 1;  // over digits 0..d-1
  for (int d = 0; d < dg.n; ++d) {
    std::int64_t members = 1;
    for (int g : groups) members *= dg.factor[g][d];
    const auto i = static_cast<std::size_t>(d);
    lc.members[i] = static_cast<std::int32_t>(members);
    // A digit the group does not span has no stride (1): nothing reads it, and equal
    // collectives then compare equal (physics/collective_memo.hpp).
    std::int64_t stride = 1;
    if (members > 1)
      for (int k = 0; k < inside; ++k) stride *= dg.factor[dg.order[static_cast<std::size_t>(k)]][d];
    lc.stride[i] = static_cast<std::int32_t>(stride);
    lc.share[i] =
        members > 1
            ? static_cast<std::int32_t>(std::max<std::int64_t>(1, active / std::max<std::int64_t>(1, own)))
            : 1;
    for (int g : {kTp, kCp, kDp}) active *= dg.factor[g][d];
    own *= members;
  }
}

// The group's shape and its flat view at the highest digit it spans.
LinkCost group_link(const MachineSpec& m, const Digits& dg, std::initializer_list<int> groups) {
  LinkCost lc;
  fill_shape(lc, dg, groups);
  int hd = -1;
  for (int d = 0; d < dg.n; ++d)
    if (lc.members[static_cast<std::size_t>(d)] > 1) hd = d;
  if (hd < 0) return LinkCost{};
  set_flat_view(lc, m, hd, lc.share[static_cast<std::size_t>(hd)]);
  return lc;
}

// The first `r` members of a group (inner digits first): the ranks sharing one KV head
// within TP, or the EP group carved from the FFN shard group. Same strides as the group. The
// first r members fill digit 0 up to its members, then digit 1, ...: r <= members[0] stays in
// digit 0 even when r does not divide it (TP 12 = 6 x 2 with r = 4: members 0..3, one node),
// as the parent commit's cumulative-product rule placed it.
LinkCost subgroup_of(const MachineSpec& m, const LinkCost& group, std::int64_t r) {
  if (r <= 1 || group.level == 0) return {};
  LinkCost lc = group;
  std::int64_t rest = r;
  int top = -1;
  for (std::size_t d = 0; d < lc.members.size(); ++d) {
    if (lc.members[d] == 0) break;
    const std::int64_t take = std::min<std::int64_t>(lc.members[d], std::max<std::int64_t>(1, rest));
    lc.members[d] = static_cast<std::int32_t>(take);
    if (take > 1) top = static_cast<int>(d);
    rest = (rest + take - 1) / take;
  }
  if (top < 0) return {};
  for (std::size_t d = static_cast<std::size_t>(top) + 1; d < lc.members.size(); ++d)
    if (lc.members[d] > 0) lc.members[d] = 1;
  if (top + 1 == group.level) return lc;  // spans the same highest level: same flat link
  set_flat_view(lc, m, top, lc.share[static_cast<std::size_t>(top)]);
  return lc;
}

InvalidReason check_knobs(const ModelSpec& model, const MachineSpec& machine, const Workload& w,
                          const ParallelConfig& c) {
  if (c.cp < 1 || c.tp < 1 || c.pp < 1 || c.dp < 1 || c.ep < 1) return InvalidReason::bad_knob;
  if (model.heads % c.tp != 0) return InvalidReason::tp_not_dividing_heads;
  if (!model.has_mla && model.kv_heads % c.tp != 0 && c.tp % model.kv_heads != 0)
    return InvalidReason::tp_kv_heads_mismatch;
  if (c.pp > model.layers) return InvalidReason::pp_exceeds_layers;
  if (c.ep > 1) {
    if (!model.has_moe) return InvalidReason::ep_without_experts;
    // The E experts, and EPLB's R redundant ones, spread evenly over the EP ranks.
    const std::int64_t slots = model.moe.experts + (model.moe.eplb ? model.moe.redundant_experts : 0);
    if (slots % c.ep != 0) return InvalidReason::ep_not_dividing_experts;
  }
  if (c.cp > 1 && c.cp_ring_variant == CpRingVariant::tree && w.mode != Mode::decode)
    return InvalidReason::tree_in_prefill;
  const int top = static_cast<int>(machine.levels.size());
  // Placement p >= 1 means distinct level-p units; they must exist below the top level.
  if (c.tp_placement < 0 || c.cp_placement < 0 ||
      (c.tp > 1 && c.tp_placement > top - 1 && c.tp_placement != 0) ||
      (c.cp > 1 && c.cp_placement > top - 1 && c.cp_placement != 0))
    return InvalidReason::placement_out_of_range;
  std::int64_t on_pe = 1;
  if (c.tp_placement == 0) on_pe *= c.tp;
  if (c.cp_placement == 0) on_pe *= c.cp;
  if (!machine.levels.empty() && on_pe > machine.levels[0].fanout)
    return InvalidReason::pe_group_exceeds_fanout;
  if (c.pes() > machine.total_pes()) return InvalidReason::exceeds_machine;
  return InvalidReason::none;
}

// Inside out: PE-placed groups (tp before cp), then level-placed ones by level, then dp, pp.
Digits make_digits(const MachineSpec& machine, const ParallelConfig& c) {
  Digits dg;
  dg.n = std::min<int>(static_cast<int>(machine.levels.size()), kMaxLevels);
  for (int d = 0; d < dg.n; ++d) dg.capacity[d] = machine.levels[static_cast<std::size_t>(d)].fanout;
  const bool tp_first = c.tp_placement <= c.cp_placement;
  dg.order = {tp_first ? kTp : kCp, tp_first ? kCp : kTp, kDp, kPp};
  const auto size_of = [&](int g) -> std::int64_t { return g == kTp ? c.tp : c.cp; };
  const auto start_of = [&](int g) -> int { return g == kTp ? c.tp_placement : c.cp_placement; };
  place(dg, dg.order[0], size_of(dg.order[0]), start_of(dg.order[0]));
  place(dg, dg.order[1], size_of(dg.order[1]), start_of(dg.order[1]));
  place(dg, kDp, c.dp, 0);
  place(dg, kPp, c.pp, 0);
  return dg;
}

}  // namespace

std::int64_t top_level_units_needed(const MachineSpec& machine, const ParallelConfig& c) {
  const Digits dg = make_digits(machine, c);
  if (dg.n == 0) return 1;
  std::int64_t units = 1;
  for (int g = 0; g < kGroups; ++g) units *= dg.factor[g][dg.n - 1];
  return units;
}

std::vector<std::int64_t> group_members(const MachineSpec& machine, const ParallelConfig& c, GroupKind kind) {
  const Digits dg = make_digits(machine, c);
  const int g = kind == GroupKind::tp ? kTp : kind == GroupKind::cp ? kCp : kind == GroupKind::dp ? kDp : kPp;
  std::vector<std::int64_t> members{0};
  for (int d = 0; d < dg.n; ++d) {
    // Members vary digit d in steps of the factors of the groups placed before this one.
    std::int64_t inner = 1;
    for (int o : dg.order) {
      if (o == g) break;
      inner *= dg.factor[o][d];
    }
    const std::int64_t stride = machine.pes_per_unit(d) * inner;
    const std::size_t n = members.size();
    for (std::int64_t i = 1; i < dg.factor[g][d]; ++i)
      for (std::size_t m = 0; m < n; ++m) members.push_back(members[m] + i * stride);
  }
  std::sort(members.begin(), members.end());
  return members;
}

namespace {

// out = Layout{}, field by field: a few vector stores instead of a `rep stos` of 256 bytes.
void reset(Layout& out) {
  static_assert(sizeof(Layout) == 928, "Layout changed: reset the new field in reset()");
  out.valid = false;
  out.reason = InvalidReason::none;
  for (LinkCost* l : {&out.tp, &out.cp, &out.kv_group, &out.ffn, &out.ep, &out.dp, &out.pp_hop})
    *l = LinkCost{};
  out.units_used.fill(0);
  out.ffn_group = 1;
}

}  // namespace

void compute_layout(const ModelSpec& model, const MachineSpec& machine, const Workload& workload,
                    const ParallelConfig& c, Layout& out) {
  reset(out);
  out.reason = check_knobs(model, machine, workload, c);
  if (out.reason != InvalidReason::none) return;

  switch (c.ffn_shard_scope) {
    case FfnShardScope::tp:
      out.ffn_group = c.tp;
      break;
    case FfnShardScope::tp_cp:
      out.ffn_group = c.tp * c.cp;
      break;
    case FfnShardScope::tp_cp_dp:
      out.ffn_group = c.tp * c.cp * c.dp;
      break;
  }
  if (c.ep > 1 && out.ffn_group % c.ep != 0) {
    out.reason = InvalidReason::ep_not_dividing_ffn_group;
    return;
  }

  const Digits dg = make_digits(machine, c);
  if (dg.overflow) {
    out.reason = InvalidReason::exceeds_hierarchy;
    return;
  }

  out.tp = group_link(machine, dg, {kTp});
  out.cp = group_link(machine, dg, {kCp});
  out.dp = group_link(machine, dg, {kDp});
  const std::int64_t r =
      model.has_mla ? c.tp : std::max<std::int64_t>(1, c.tp / std::max<std::int64_t>(1, model.kv_heads));
  out.kv_group = subgroup_of(machine, out.tp, r);
  switch (c.ffn_shard_scope) {
    case FfnShardScope::tp:
      out.ffn = out.tp;
      break;
    case FfnShardScope::tp_cp:
      out.ffn = group_link(machine, dg, {kTp, kCp});
      break;
    case FfnShardScope::tp_cp_dp:
      out.ffn = group_link(machine, dg, {kTp, kCp, kDp});
      break;
  }
  // ep is carved from the FFN shard group (its first ep members); the flat view stays the FFN
  // group's highest level, as the legacy ring prices it.
  out.ep = out.ffn;
  if (c.ep > 1) {
    const LinkCost sub = subgroup_of(machine, out.ffn, c.ep);
    out.ep.members = sub.members;
  }
  // A pipeline hop crosses the level separating consecutive stages: pp's lowest digit.
  for (int d = 0; d < dg.n; ++d) {
    if (dg.factor[kPp][d] > 1) {
      fill_shape(out.pp_hop, dg, {kPp});
      set_flat_view(out.pp_hop, machine, d, out.pp_hop.share[static_cast<std::size_t>(d)]);
      break;
    }
  }

  out.units_used[0] = c.pes();
  // units_used[p]: the product of every group's factors on digits p..n-1 (a suffix product).
  std::int64_t units = 1;
  for (int p = dg.n; p >= 1; --p) {
    out.units_used[static_cast<std::size_t>(p)] = units;
    for (int g = 0; g < kGroups; ++g) units *= dg.factor[g][p - 1];
  }
  out.valid = true;
}

LinkCost expert_sharers(const MachineSpec& machine, const Layout& layout) {
  // The FFN group's ranks in its own order (inner digit fastest, radix members[d]); the EP group
  // is its ranks 0..ep-1 (subgroup_of) and an expert's sharers are ranks i, i + ep, i + 2 ep, ...
  // Their members at digit d: the distinct digit-d values of k x ep, k < f / ep. When the EP group
  // divides every digit this is the FFN group's members over the EP group's, digit by digit;
  // otherwise (tp 2 x dp 6 with ep 4) the values are counted, so the link always holds the f / ep
  // ranks the collective names.
  const int levels = std::min<int>(static_cast<int>(machine.levels.size()), kMaxLevels);
  std::int64_t ep = 1, f = 1;
  bool divides = true;
  for (int d = 0; d < levels; ++d) {
    const auto i = static_cast<std::size_t>(d);
    const std::int32_t fm = std::max<std::int32_t>(1, layout.ffn.members[i]);
    const std::int32_t em = std::max<std::int32_t>(1, layout.ep.members[i]);
    ep *= em;
    f *= fm;
    divides = divides && fm % em == 0;
  }
  LinkCost lc;
  if (ep >= f) return lc;
  const std::int64_t n = f / ep;
  std::int64_t radix = 1, own = 1, ffn_own = 1;
  int top = -1;
  for (int d = 0; d < levels; ++d) {
    const auto i = static_cast<std::size_t>(d);
    const std::int64_t m = std::max<std::int32_t>(1, layout.ffn.members[i]);
    std::int64_t distinct = 1;
    if (divides) {
      distinct = m / std::max<std::int32_t>(1, layout.ep.members[i]);
    } else if (m > 1) {
      constexpr std::int64_t kCap = 4096;  // digit values counted exactly up to this fanout
      if (m > kCap) {
        distinct = std::min(m, n);
      } else {
        std::array<bool, kCap> seen{};
        distinct = 0;
        for (std::int64_t k = 0; k < n; ++k) {
          const std::int64_t v = (k * ep / radix) % m;
          if (!seen[static_cast<std::size_t>(v)]) {
            seen[static_cast<std::size_t>(v)] = true;
            ++distinct;
          }
        }
      }
    }
    lc.members[i] = static_cast<std::int32_t>(distinct);
    lc.stride[i] = distinct > 1 ? std::max<std::int32_t>(1, layout.ffn.stride[i]) *
                                      static_cast<std::int32_t>(std::max<std::int64_t>(1, m / distinct))
                                : 1;
    // Concurrent sharer groups leaving a unit of this digit: the FFN group's count times the FFN
    // members per sharer on the digits below (fill_shape divides the active PEs by own members).
    lc.share[i] = distinct > 1 ? static_cast<std::int32_t>(std::max<std::int32_t>(1, layout.ffn.share[i]) *
                                                           std::max<std::int64_t>(1, ffn_own / own))
                               : 1;
    if (distinct > 1) top = d;
    radix *= m;
    ffn_own *= m;
    own *= distinct;
  }
  if (top < 0) return LinkCost{};
  set_flat_view(lc, machine, top, lc.share[static_cast<std::size_t>(top)]);
  return lc;
}

// Keep in step with compute_layout() and check_knobs(): the knobs neither of them reads.
ParallelConfig layout_key(const Workload& workload, const ParallelConfig& c) {
  ParallelConfig k = c;
  k.kv_shard_mode = KvShardMode::split;
  if (workload.mode == Mode::decode) k.cp_ring_variant = CpRingVariant::kv;
  return k;
}

bool is_canonical(const ModelSpec& model, const ParallelConfig& c) { return canonicalize(model, c) == c; }

namespace {
enum CanonicalFact : unsigned { kTpAboveKvHeads = 1, kTpOne = 2, kCpOne = 4, kDpOne = 8 };
}  // namespace

unsigned canonical_class(const ModelSpec& model, const ParallelConfig& c) {
  const std::int64_t hkv = model.has_mla ? 1 : model.kv_heads;
  return (c.tp > hkv ? kTpAboveKvHeads : 0u) | (c.tp == 1 ? kTpOne : 0u) | (c.cp == 1 ? kCpOne : 0u) |
         (c.dp == 1 ? kDpOne : 0u);
}

ParallelConfig canonical_form(unsigned cls, const ParallelConfig& c) {
  ParallelConfig k = c;
  if (!(cls & kTpAboveKvHeads)) k.kv_shard_mode = KvShardMode::split;
  if (cls & kTpOne) k.tp_placement = 0;
  if (cls & kCpOne) {
    k.cp_placement = 1;
    k.cp_ring_variant = CpRingVariant::kv;
  }
  k.ffn_shard_scope = canonical_scope(k.ffn_shard_scope, (cls & kCpOne) ? 1 : 2, (cls & kDpOne) ? 1 : 2);
  return k;
}

FfnShardScope canonical_scope(FfnShardScope s, std::int32_t cp, std::int32_t dp) {
  if (s == FfnShardScope::tp_cp_dp && dp == 1) s = FfnShardScope::tp_cp;
  if (s == FfnShardScope::tp_cp && cp == 1) s = FfnShardScope::tp;
  return s;
}

ParallelConfig canonicalize(const ModelSpec& model, const ParallelConfig& c) {
  return canonical_form(canonical_class(model, c), c);
}

}  // namespace tessera
