#pragma once
// The time of a collective on a group of n ranks (docs/physics.md §5): the minimum
// over the algorithms each level's fabric supports (ring and tree with NCCL's protocols,
// one-shot and two-shot all-reduce, in-network reduction, direct all-to-all), hierarchical
// when the group spans levels, with the per-level constants of the machine file's
// `collectives:` blocks. M is per rank: all-reduce and reduce-scatter the input, all-gather
// the output, all-to-all what each rank sends, point-to-point the message.
#include <array>
#include <cstdint>
#include <span>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/physics/layout.hpp"

namespace tessera {

enum class CommKind : std::uint8_t { none, all_reduce, all_gather, reduce_scatter, all_to_all, p2p };
TESSERA_API const char* comm_kind_name(CommKind k);

struct Collective {
  CommKind kind = CommKind::none;
  std::int32_t ranks = 1;
  double bytes = 0;  // M, per docs/physics.md §5
  LinkCost link;
  // An MoE dispatch or combine run by DeepEP's normal kernels (docs/physics.md §5 "MoE
  // all-to-all kernels"): each token, routed to route_top_k distinct of route_experts experts
  // spread evenly over the ranks, crosses a network level once per destination unit that holds
  // one of them and is forwarded inside it. 0: every token-expert copy is sent directly (DeepEP's
  // low-latency kernels, pplx-kernels, NCCL's all-to-all).
  std::int32_t route_top_k = 0;
  std::int32_t route_experts = 0;
};

// What a latency model changes in every collective: the achieved fraction of the bandwidth
// and a software latency added per algorithm step (calibrated's fitted values; 1 and 0 for
// the reference models).
struct CommRates {
  double bw_efficiency = 1;
  double extra_latency = 0;  // s per step
};

// How a collective is (or would be) run.
enum class CommShape : std::uint8_t {
  flat,          // one algorithm over the whole group (one level, or a ring/tree across levels)
  hierarchical,  // reduce-scatter inside, all-reduce across on 1/n_inner, all-gather inside
};

struct CollectiveChoice {
  double seconds = 0;
  CollAlgorithm algorithm = CollAlgorithm::ring;  // of the phase at the highest level
  Protocol protocol = Protocol::none;
  CommShape shape = CommShape::flat;
  bool any = false;  // false: nothing to do (one rank, no bytes) or no algorithm applies
};

// Bytes one rank puts on the wire for the collective (2(n-1)/n M for a ring all-reduce, ...):
// the data-volume accounting of docs/physics.md §5, the same whichever algorithm runs it.
TESSERA_API double collective_wire_bytes(const Collective& c);

// The legacy alpha-beta ring at the highest level (the earlier definition, docs/physics.md §5 "Legacy ring"):
// what a level with
// `collectives: {algorithm: ring}` gets, bit for bit as before.
TESSERA_API double ring_collective_time(const Collective& c, double bw_efficiency = 1.0,
                                        double extra_latency_s = 0.0);

// The fastest algorithm for `c` on `machine`. No allocation.
TESSERA_API CollectiveChoice collective_cost(const Collective& c, const MachineSpec& machine,
                                             const CommRates& rates = {});

// Every candidate collective_cost() chose from (for `explain`): at most out.size() written,
// the number of candidates returned; collective_cost().seconds is the minimum of them.
inline constexpr int kMaxCollectiveCandidates = 48;
TESSERA_API int collective_candidates(const Collective& c, const MachineSpec& machine, const CommRates& rates,
                                      std::span<CollectiveChoice> out);

// The terms of one priced candidate, for `explain` (the deciding term named, not only
// its total): the base, the hops each spanned level puts on the critical path with the seconds
// each, and the bandwidth term; total = base_s + sum(steps[i] * hop_s[i]) + bandwidth_s.
// `any` is false for a candidate it does not break down (today: every candidate but NCCL's flat
// tree through levels that include a network, the cross-node all-reduce of decode).
struct CollectiveTerms {
  bool any = false;
  double base_s = 0;
  int levels = 0;
  std::array<int, kMaxLevels> level{};     // 0-based index into MachineSpec::levels
  std::array<double, kMaxLevels> steps{};  // hops of that level on the critical path
  std::array<double, kMaxLevels> hop_s{};  // seconds per hop (the protocol's hop + the model's extra)
  double bandwidth_s = 0;
};
TESSERA_API CollectiveTerms collective_terms(const Collective& c, const MachineSpec& machine,
                                             const CommRates& rates, const CollectiveChoice& choice);

// One point-to-point message of `bytes` between consecutive members of the group `link`
// (a pipeline hop, a context-parallel ring step): level latency x hops + bytes / bandwidth,
// the bandwidth of one path of the level's topology. Legacy (ring-only) levels: alpha + M/beta.
TESSERA_API double p2p_message_time(const LinkCost& link, const MachineSpec& machine, double bytes,
                                    const CommRates& rates = {});

}  // namespace tessera
