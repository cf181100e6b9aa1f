#pragma once
// What DeepEP's normal kernels put on each level of an MoE all-to-all (docs/physics.md §5 "MoE
// all-to-all kernels"): a token once per destination rank and per destination unit (node) that
// holds one of its experts, where the direct kernels send every token-expert copy. Used by
// collectives.cpp for a Collective with route_top_k > 0.
#include "tessera/physics/collectives.hpp"

namespace tessera {

// The probability that a unit of `unit` of the n ranks holds none of a token's route_top_k
// distinct experts (of route_experts, spread evenly): prod_{j<K} (E - E unit/n - j) / (E - j).
double unit_missed(const Collective& c, double unit, double n);

// The fraction of M (a rank's K copies of each token) that crosses one spanned level of g units of
// `below` ranks each: a network level (g - 1)(1 - q(below)) / K; the NVLink level (below 1)
// (g - 1)(1 - q(1)) (n / g) / K, the copies to the node's other GPUs and those forwarded from the
// other nodes; any other level every copy, (below g - below) / n.
double routed_share(const Collective& c, bool network, double g, double below, double n);

// M as the single-level direct formula should read it: c.bytes, or for DeepEP's normal kernels on
// g ranks c.bytes g (1 - q(1)) / K, whose (g - 1)/g is the (g - 1)(1 - q(1)) M / K they send.
double routed_one_level_bytes(const Collective& c, double g);

}  // namespace tessera
