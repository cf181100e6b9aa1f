// Default collective constants per fabric kind (docs/physics.md §5 "Defaults per fabric").
// A machine file's `collectives:` block overrides any of them per level; these apply to a
// level without one (and `tessera validate` warns that it relies on them).
//
// Sources (each number below is read, not fitted):
//  [N] NCCL v2.20.5-1 src/graph/tuning.cc: baseLat (Tree LL/LL128/Simple 6.8/14.0/0 us, Ring
//      6.6/14.0/8.4 us), hwLat per hardware (NVLINK, PCI, NET) per algorithm and protocol, the
//      bandwidth refinements (ring LL x1/4 for all-reduce, LL128 x0.92; tree x0.92, tree LL
//      x1/3.8, tree LL128 x7/9 within a node and x120/128 across nodes) and NVLS (hwLat NVLINK
//      23 us, NET 18 us; bus-to-algorithm ratio 5/6).
//  [L] NCCL v2.20.5-1 src/graph/topo.h SM90_NVLINK_BW 20.6 GB/s per NVLink4 link, against the
//      link's 25 GB/s per direction: 0.824 of nominal (SM80: 20.0 of 25, 0.8).
#include "tessera/machine.hpp"

namespace tessera {

namespace {

constexpr double us = 1e-6;

struct Row {
  double ring_hop[3];
  double tree_hop[3];
};

// hwLat [N] per fabric: Tree {LL, LL128, Simple}, Ring {LL, LL128, Simple}, in us.
constexpr Row kNvlink{{0.6, 1.9, 3.4}, {0.6, 1.25, 28}};
constexpr Row kPci{{1.0, 2.5, 5.7}, {1.0, 1.9, 28}};
constexpr Row kNet{{2.7, 4.0, 14.0}, {5.0, 8.5, 28}};

LevelCollectives from_row(Fabric f, const Row& r, double tree_ll128_factor) {
  LevelCollectives c;
  c.fabric = f;
  const double ring_base[3] = {6.6, 14.0, 8.4};
  const double tree_base[3] = {6.8, 14.0, 0.0};
  const double ring_bw[3] = {1.0 / 4.0, 0.92, 1.0};
  const double tree_bw[3] = {0.92 / 3.8, 0.92 * tree_ll128_factor, 0.92};
  for (int p = 0; p < kProtocolCount; ++p) {
    c.ring[static_cast<std::size_t>(p)] = {ring_base[p] * us, r.ring_hop[p] * us, ring_bw[p]};
    c.tree[static_cast<std::size_t>(p)] = {tree_base[p] * us, r.tree_hop[p] * us, tree_bw[p]};
  }
  c.in_network_cost = {23 * us, 0, 5.0 / 6.0};
  return c;
}

}  // namespace

LevelCollectives fabric_collectives(Fabric f) {
  LevelCollectives c;
  switch (f) {
    case Fabric::nvlink:
    case Fabric::xgmi:
    case Fabric::ici:
      c = from_row(f, kNvlink, 7.0 / 9.0);
      c.link_efficiency = 0.8;  // [L], SM80
      break;
    case Fabric::pcie:
      c = from_row(f, kPci, 7.0 / 9.0);
      break;
    case Fabric::network:
      c = from_row(f, kNet, 120.0 / 128.0);
      c.in_network_cost = {18 * us, 0, 5.0 / 6.0};
      break;
  }
  return c;
}

}  // namespace tessera
