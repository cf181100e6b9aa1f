#pragma once
// What one level's topology gives the members of a group inside one unit of that level
// (docs/physics.md §6): closed forms per topology, no allocation (hot path). `link_bw` is each
// PE's injection bandwidth per direction into the level, shared by its links:
//   switch      one port to the switch: any peer at link_bw, 1 hop;
//   all-to-all  a full mesh, fanout-1 links of link_bw/(fanout-1) each, 1 hop to any peer;
//   ring        2 links (one per neighbour) of link_bw/2 each (1 link of link_bw when fanout
//               is 2); bidirectional; a ring is a torus of one dimension, extent fanout;
//   torus       dims d_1 x ... x d_k (product = fanout), wrap-around, 2 links per dimension of
//               extent > 2 (1 when the extent is 2, none when 1), link_bw split evenly over
//               them. A torus without valid dims (none, or product != fanout) is priced as a
//               ring of fanout.
// A group of g members lies at unit-local indices 0, stride, 2*stride, ... (g-1)*stride
// (members differing in this digit; see layout.hpp's LinkCost). On a ring or torus, the
// indices are mixed-radix coordinates (dimension 1 innermost); an *aligned* group is a product
// of one arithmetic progression per dimension j: g_j members s_j apart, either spanning the
// whole dimension (g_j * s_j = d_j: a sub-ring) or a segment of it (a line). The s_j - 1
// groups interleaved with it in dimension j (the same kind of group through the PEs between
// its members: SPMD, they run the same collective at the same time) share that dimension's
// links evenly, so every bandwidth below is divided by s_j. Groups that are not aligned (odd
// sizes that do not tile the dimensions) are priced as a line through the members in index
// order (pessimistic; docs/physics.md §6).
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct LevelPaths {
  double p2p_bw = 0;      // B/s per direction from one member to the next (one message, one path)
  double p2p_hops = 0;    // link hops from one member to the next
  double ring_bw = 0;     // B/s per PE a ring collective over the g members reaches (every link
                          // of the members usable by rings in both directions, e.g. several rings)
  double ring_hops = 0;   // link hops of one ring step (1 on switch and mesh)
  double ring_steps = 0;  // sequential steps of one reduce-scatter (or all-gather) pass: g-1, or
                          // sum_j (g_j - 1) on a torus (rings dimension by dimension)
  double a2a_bw = 0;      // B/s per PE for all-to-all among the g members: the (g-1)/g * M sent by
                          // each takes (g-1)/g * M / a2a_bw (bisection- or link-bound)
  double max_hops = 0;    // largest hop count between two members (diameter of the group)
  double links = 0;       // links per PE into this level (1 switch, fanout-1 mesh, 2 ring, ...)
};

// g >= 1 members spaced `stride` >= 1 apart (g * stride <= fanout). g = 1 (or fanout 1) gives
// zeros; so does link_bw 0 for the bandwidths. Never divides by zero.
TESSERA_API LevelPaths level_paths(const LevelSpec& level, std::int64_t g, std::int64_t stride);

// Link hops between unit-local indices a and b (0 <= a, b < fanout; taken modulo fanout) of
// one unit of `level` (switch 1 — through the switch —, mesh 1, ring / torus the sum over
// dimensions of the shortest wrap-around distance); 0 when a == b.
TESSERA_API std::int64_t level_hops(const LevelSpec& level, std::int64_t a, std::int64_t b);

// Links cut by the worst (smallest) bisection of one unit into halves of floor(fanout/2) and
// ceil(fanout/2) members: switch floor(n/2) ports (the smaller half's); mesh
// floor(n/2) * ceil(n/2); ring 2 (1 when n = 2); torus, cutting across the largest extent D:
// 2 * n / D (n / D when D = 2). 0 when n < 2. Checked against the Boost.Graph model (a cut
// count and a max-flow min cut) for every shipped machine.
TESSERA_API std::int64_t level_bisection_links(const LevelSpec& level);

}  // namespace tessera
