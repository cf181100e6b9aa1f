#pragma once
// What one level's topology gives the members of a group inside one unit of that level
// (docs/physics.md §6): closed forms per topology, no allocation (hot path). `link_bw` is each
// PE's injection bandwidth per direction into the level, shared by its links:
//   switch      one port to the switch: any peer at link_bw, 1 hop;
//   all-to-all  a full mesh, fanout-1 links of link_bw/(fanout-1) each, 1 hop to any peer;
//   ring        2 links (one per neighbour) of link_bw/2 each; bidirectional;
//   torus       dims d_1 x ... x d_k (product = fanout), wrap-around, 2 links per dimension of
//               extent > 2 (1 when the extent is 2), link_bw split evenly over them.
// A group of g members lies at unit-local indices 0, stride, 2*stride, ... (g-1)*stride
// (members differing in this digit; see layout.hpp's LinkCost).
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct LevelPaths {
  double p2p_bw = 0;     // B/s per direction from one member to the next (one message, one path)
  double p2p_hops = 0;   // link hops from one member to the next
  double ring_bw = 0;    // B/s per PE a ring collective over the g members reaches (every link
                         // of the members usable by rings in both directions, e.g. several rings)
  double ring_hops = 0;  // link hops of one ring step (1 on switch and mesh)
  double a2a_bw = 0;     // B/s per PE for all-to-all among the g members: the (g-1)/g * M sent by
                         // each takes (g-1)/g * M / a2a_bw (bisection- or link-bound)
  double max_hops = 0;   // largest hop count between two members (diameter of the group)
  double links = 0;      // links per PE into this level (1 switch, fanout-1 mesh, 2 ring, ...)
};

// g >= 1 members spaced `stride` >= 1 apart (g * stride <= fanout). g = 1 gives zeros.
TESSERA_API LevelPaths level_paths(const LevelSpec& level, std::int64_t g, std::int64_t stride);

// Link hops between unit-local indices a and b (0 <= a, b < fanout) of one unit of `level`
// (switch 1 — through the switch —, mesh 1, ring / torus the shortest wrap-around distance).
TESSERA_API std::int64_t level_hops(const LevelSpec& level, std::int64_t a, std::int64_t b);

// Links cut by the worst bisection of one unit into two halves of fanout/2 members (switch:
// fanout/2 ports; mesh (n/2)^2; ring 2; torus 2 * fanout / (largest extent), doubled... as
// the closed form in level_topology.cpp documents). Checked against the Boost.Graph model.
TESSERA_API std::int64_t level_bisection_links(const LevelSpec& level);

}  // namespace tessera
