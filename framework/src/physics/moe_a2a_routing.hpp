#pragma once
// What DeepEP's normal kernels put on each level of an MoE all-to-all (docs/physics.md §5 "MoE
// all-to-all kernels"): a token once per destination rank and per destination unit (node) that
// holds one of its experts, where the direct kernels send every token-expert copy. Used by
// collectives.cpp for a Collective with route_top_k > 0.
#include <algorithm>

#include "tessera/physics/collectives.hpp"

namespace tessera {

// The probability that a unit of `unit` of the n ranks holds none of a token's route_top_k
// distinct experts (of route_experts, spread evenly): prod_{j<K} (E - E unit/n - j) / (E - j).
double unit_missed(const Collective& c, double unit, double n);

// DeepEP forwards a token over NVLink to at most 8 peers (NUM_MAX_NVL_PEERS, csrc/kernels/configs.cuh):
// the unit a token crosses the network to once is min(8, the group's members on the first level)
// when that level is a peer-memory fabric (NVLink, xGMI), else one rank (no forwarding).
inline constexpr double kMaxForwardPeers = 8;

// The fraction of M (a rank's K copies of each token) that crosses one spanned level of g members
// per unit below it (`below` ranks each), with n ranks in all, forwarding units of u ranks and g0
// members on the first level: a network level ((g - 1) below / u)(1 - q(u)) / K, one copy per
// forwarding unit reached; the first level (below 1) [(g0 - 1)(1 - q(1)) + (n - g0)(u - 1)(1 - q(1))
// / u] / K, the copies to the other ranks of the unit and those forwarded inside the units the
// network reached; any other level every copy, (g - 1) below / n.
double routed_share(const Collective& c, bool network, double g, double below, double n, double u, double g0);

// The forwarding unit: min(8, g0) when the first spanned level is level 0 and a peer-memory fabric
// (`forwards`), else 1.
inline double forwarding_unit(bool forwards, double g0) {
  return forwards ? std::min(kMaxForwardPeers, g0) : 1.0;
}

// The share of M crossing a level for any all-to-all: routed_share for DeepEP's normal kernels
// (route_top_k > 0), else every copy to the ranks first reached there, (g - 1) below / n.
inline double a2a_share(const Collective& c, bool network, double g, double below, double n, double u,
                        double g0) {
  return c.route_top_k > 0 ? routed_share(c, network, g, below, n, u, g0) : (below * g - below) / n;
}

// M as the single-level direct formula should read it: c.bytes, or for DeepEP's normal kernels on
// g ranks c.bytes g (1 - q(1)) / K, whose (g - 1)/g is the (g - 1)(1 - q(1)) M / K they send.
double routed_one_level_bytes(const Collective& c, double g);

// What one rank of a DeepEP normal exchange puts on the wire: each token once to every other rank
// of its node (of g0 = the group's members on the first level) holding one of its experts and once
// to every other forwarding unit of u = min(8, g0) ranks reached, (M / K)[(g0 - 1)(1 - q(1)) +
// ((n - g0) / u)(1 - q(u))].
double routed_wire_bytes(const Collective& c);

}  // namespace tessera
