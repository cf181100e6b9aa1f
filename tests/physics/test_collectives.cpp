// Collective algorithms (docs/physics.md §5): hand-computed times of every algorithm
// and protocol at 16 KiB, 1 MiB and 256 MiB on a switch (DGX H100 node), a full mesh (MI300X
// node), a ring (cube-sip's sip) and a torus (TPU v4 cube), the algorithm collective_cost()
// names, the reported time = the minimum of collective_candidates(); hierarchical = flat on
// one level; monotonicity in every bandwidth and latency knob; a larger allowed set never
// slower; degenerate inputs. The constants are the shipped machine files' (loaded) and
// core/sdk/fabric_defaults.cpp's; every expected value is written out from them.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"
#include "tessera/physics/collectives.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/level_topology.hpp"

namespace tessera {
namespace {

constexpr double KiB = 1024.0, MiB = 1024.0 * 1024.0;
constexpr double us = 1e-6;

MachineSpec machine(const char* file) {
  return load_machine_file(std::string(TESSERA_SOURCE_DIR) + "/machines/" + file);
}

// The link of a group of g members (stride 1) at level `d` (0-based) alone, as compute_layout
// fills it for a group inside one unit of that level.
LinkCost one_level(const MachineSpec& m, int d, int g, int stride = 1) {
  LinkCost l;
  const LevelSpec& lv = m.levels[static_cast<std::size_t>(d)];
  l.level = d + 1;
  l.bandwidth = lv.link_bw;
  l.latency = lv.latency;
  l.sharing = 1;
  for (std::size_t i = 0; i < m.levels.size(); ++i) {
    l.members[i] = 1;
    l.stride[i] = 1;
    l.share[i] = 1;
  }
  l.members[static_cast<std::size_t>(d)] = g;
  l.stride[static_cast<std::size_t>(d)] = stride;
  return l;
}

// A group of whole nodes: every PE of `nodes` units of level 1 (its link, latency and fanout from
// the machine file: on DGX H100, 8 GPUs per node, 50 GB/s and 8 us per cluster link).
LinkCost across_nodes(const MachineSpec& m, int nodes) {
  LinkCost l = one_level(m, 1, nodes);
  l.members[0] = static_cast<int>(m.levels[0].fanout);
  return l;
}

Collective coll(CommKind k, int ranks, double bytes, const LinkCost& l) {
  Collective c;
  c.kind = k;
  c.ranks = ranks;
  c.bytes = bytes;
  c.link = l;
  return c;
}

struct Cands {
  std::array<CollectiveChoice, kMaxCollectiveCandidates> v{};
  int n = 0;
  // Seconds of the candidate (a, p); -1 when absent.
  double of(CollAlgorithm a, Protocol p = Protocol::none) const {
    for (int i = 0; i < n; ++i)
      if (v[static_cast<std::size_t>(i)].algorithm == a && v[static_cast<std::size_t>(i)].protocol == p)
        return v[static_cast<std::size_t>(i)].seconds;
    return -1;
  }
  double min() const {
    double m = 1e300;
    for (int i = 0; i < n; ++i) m = std::min(m, v[static_cast<std::size_t>(i)].seconds);
    return m;
  }
};

Cands candidates(const Collective& c, const MachineSpec& m) {
  Cands r;
  r.n = collective_candidates(c, m, {}, r.v);
  return r;
}

bool rel(double a, double b) { return a == Approx(b).epsilon(1e-12); }

// ---- switch: DGX H100 node (machines/dgx-h100.yaml) ---------------------------------------
// B = 450 GB/s, switch, nvlink, link_efficiency 0.824 -> NCCL bus bw 450e9 * 0.824 = 370.8e9;
// one_shot {3.2 us, bw 0.69}, two_shot default {11 us, 0.72}, in_network default {23 us, 5/6},
// direct {13.2 us, 0.54}; NCCL NVLINK rows: ring base {6.6, 14, 8.4} us, hop {0.6, 1.9, 3.4} us,
// bw {1/4, 0.92, 1}; tree base {6.8, 14, 0}, hop {0.6, 1.25, 28}, bw {0.92/3.8, 0.92 * 7/9, 0.92}.
// All-reduce on g = 8: ring 2(g-1) = 14 steps of 2(g-1)/g = 1.75 M; tree depth g-1 = 7 (chain).
double h100_ar(CollAlgorithm a, Protocol p, double M) {
  const double nccl = 450e9 * 0.824;
  switch (a) {
    case CollAlgorithm::nccl_ring: {
      const double base[3] = {6.6, 14.0, 8.4}, hop[3] = {0.6, 1.9, 3.4}, bw[3] = {0.25, 0.92, 1.0};
      const auto i = static_cast<std::size_t>(p);
      return (base[i] + 14 * hop[i]) * us + 1.75 * M / (nccl * bw[i]);
    }
    case CollAlgorithm::nccl_tree: {
      const double base[3] = {6.8, 14.0, 0.0}, hop[3] = {0.6, 1.25, 28};
      const double bw[3] = {0.92 / 3.8, 0.92 * 7.0 / 9.0, 0.92};
      const auto i = static_cast<std::size_t>(p);
      return (base[i] + 2 * 7 * hop[i]) * us + M / (0.5 * nccl * bw[i]);
    }
    case CollAlgorithm::one_shot:
      return 3.2 * us + 7 * M / (450e9 * 0.69);  // (g-1) M read through the port
    case CollAlgorithm::two_shot:
      return 11.0 * us + 1.75 * M / (450e9 * 0.72);
    case CollAlgorithm::in_network:
      return 23.0 * us + M / (nccl * 0.71);  // machines/dgx-h100.yaml: measured NVLS rate
    default:
      return -1;
  }
}

TEST_CASE("collectives: H100 node all-reduce hand-computed per algorithm and protocol", "[collectives]") {
  const MachineSpec m = machine("dgx-h100.yaml");
  const LinkCost l = one_level(m, 0, 8);
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    const Collective c = coll(CommKind::all_reduce, 8, M, l);
    const Cands cs = candidates(c, m);
    CHECK(cs.n == 3 + 3 + 1 + 1 + 1);  // ring x3, tree x3, one_shot, two_shot, in_network
    for (const auto a : {CollAlgorithm::nccl_ring, CollAlgorithm::nccl_tree})
      for (const auto p : {Protocol::ll, Protocol::ll128, Protocol::simple})
        CHECK(rel(cs.of(a, p), h100_ar(a, p, M)));
    for (const auto a : {CollAlgorithm::one_shot, CollAlgorithm::two_shot, CollAlgorithm::in_network})
      CHECK(rel(cs.of(a), h100_ar(a, Protocol::none, M)));
    CHECK(cs.of(CollAlgorithm::ring) < 0);  // the legacy ring is not allowed by the machine file
    const CollectiveChoice best = collective_cost(c, m);
    CHECK(best.seconds == cs.min());
    CHECK(best.shape == CommShape::flat);
  }
  // 16 KiB: one_shot 3.2 us + 7 x 16384 / 310.5e9 = 3.569 us (ring LL 15.0 + 0.31 us).
  const CollectiveChoice s = collective_cost(coll(CommKind::all_reduce, 8, 16 * KiB, l), m);
  CHECK(s.algorithm == CollAlgorithm::one_shot);
  CHECK(s.seconds == Approx(3.2e-6 + 7 * 16384 / 310.5e9));
  CHECK(s.seconds == Approx(3.569e-6).epsilon(1e-3));
  // 1 MiB: two_shot 11 + 1.75 x 1048576 / 324e9 = 16.66 us (NVLS 23 + 3.39 = 26.39 us;
  // one_shot 3.2 + 23.64 = 26.84 us); SGLang's table says 16.7 us.
  const CollectiveChoice md = collective_cost(coll(CommKind::all_reduce, 8, 1 * MiB, l), m);
  CHECK(md.algorithm == CollAlgorithm::two_shot);
  CHECK(md.seconds == Approx(16.66e-6).epsilon(1e-3));
  // 256 MiB: NVLS 23 + 268435456 / (370.8e9 x 0.71 = 263.27e9) = 1042.6 us (ring Simple 56 +
  // 1266.9 = 1322.9 us).
  const CollectiveChoice lg = collective_cost(coll(CommKind::all_reduce, 8, 256 * MiB, l), m);
  CHECK(lg.algorithm == CollAlgorithm::in_network);
  CHECK(lg.seconds == Approx(1042.6e-6).epsilon(1e-3));
  // Without NVLS (in_network off) the ring Simple wins at 256 MiB.
  MachineSpec no_nvls = m;
  no_nvls.levels[0].collectives.in_network = false;
  const CollectiveChoice r = collective_cost(coll(CommKind::all_reduce, 8, 256 * MiB, l), no_nvls);
  CHECK(r.algorithm == CollAlgorithm::nccl_ring);
  CHECK(r.protocol == Protocol::simple);
  CHECK(rel(r.seconds, h100_ar(CollAlgorithm::nccl_ring, Protocol::simple, 256 * MiB)));
}

TEST_CASE("collectives: H100 node all-gather reduce-scatter all-to-all and p2p hand-computed",
          "[collectives]") {
  const MachineSpec m = machine("dgx-h100.yaml");
  const LinkCost l = one_level(m, 0, 8);
  const double nccl = 450e9 * 0.824;
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    for (const auto k : {CommKind::all_gather, CommKind::reduce_scatter}) {
      // ring: 7 steps of 7/8 M (LL at 1/4 whatever the kind); direct (peer copies, one pass of
      // the two-shot kernel): 11 / 2 = 5.5 us + 7/8 M / (450e9 x 0.72). No tree, one/two-shot or
      // NVLS for these kinds.
      const Cands cs = candidates(coll(k, 8, M, l), m);
      CHECK(cs.n == 4);
      CHECK(
          rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll), (6.6 + 7 * 0.6) * us + 0.875 * M / (nccl / 4)));
      CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll128),
                (14.0 + 7 * 1.9) * us + 0.875 * M / (nccl * 0.92)));
      CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::simple), (8.4 + 7 * 3.4) * us + 0.875 * M / nccl));
      CHECK(rel(cs.of(CollAlgorithm::direct), 5.5 * us + 0.875 * M / (450e9 * 0.72)));
      CHECK(collective_cost(coll(k, 8, M, l), m).seconds == cs.min());
    }
    // all-to-all: direct only, 13.2 us + 7/8 M / (450e9 x 0.54).
    const Cands a2a = candidates(coll(CommKind::all_to_all, 8, M, l), m);
    CHECK(a2a.n == 1);
    CHECK(rel(a2a.of(CollAlgorithm::direct), 13.2 * us + 0.875 * M / (450e9 * 0.54)));
    // point-to-point: alpha 3 us x 1 hop + M / (450e9 x 0.824).
    CHECK(rel(p2p_message_time(l, m, M), 3 * us + M / nccl));
  }
  // 16 KiB all-gather: direct 5.5 + 14336 / 324e9 = 5.544 us beats ring LL 10.8 + 14336 /
  // 92.7e9 = 10.95 us.
  const CollectiveChoice ag = collective_cost(coll(CommKind::all_gather, 8, 16 * KiB, l), m);
  CHECK(ag.algorithm == CollAlgorithm::direct);
  CHECK(ag.seconds == Approx(5.5e-6 + 14336 / 324e9).epsilon(1e-9));
  // 256 MiB all-gather: direct 5.5 + 234881024 / 324e9 = 730.4 us vs ring Simple 32.2 +
  // 234881024 / 370.8e9 = 665.6 us: the ring.
  const CollectiveChoice big = collective_cost(coll(CommKind::all_gather, 8, 256 * MiB, l), m);
  CHECK(big.algorithm == CollAlgorithm::nccl_ring);
  CHECK(big.protocol == Protocol::simple);
  CHECK(big.seconds == Approx(665.6e-6).epsilon(1e-3));
}

// ---- full mesh: MI300X node (machines/mi300x.yaml) ----------------------------------------
// 8 GPUs, link_bw 448 GB/s over 7 xGMI links of b = 64 GB/s; a ring or all-to-all among the 8
// uses all 7 links: 448 GB/s; one path 64 GB/s. xgmi: link_efficiency 0.75 (NCCL bw 336e9),
// RCCL ring base {12, 12, 17} us, hop {0.8, 0.8, 3.6}, tree hop {0.8, 0.8, 2.5}, LL128 off
// (bw_factor 0), one_shot {7 us, 0.6}, two_shot {11 us, 0.6}, direct default {5.4 us, 0.81};
// no in-network reduction.
TEST_CASE("collectives: MI300X mesh all-reduce hand-computed and the choice named", "[collectives]") {
  const MachineSpec m = machine("mi300x.yaml");
  REQUIRE(m.levels[0].topology == LinkTopology::all_to_all);
  const LinkCost l = one_level(m, 0, 8);
  const double nccl = 448e9 * 0.75;
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    const Cands cs = candidates(coll(CommKind::all_reduce, 8, M, l), m);
    CHECK(cs.n == 2 + 2 + 2);  // ring LL/Simple, tree LL/Simple (LL128 off), one/two-shot
    CHECK(cs.of(CollAlgorithm::nccl_ring, Protocol::ll128) < 0);
    CHECK(cs.of(CollAlgorithm::in_network) < 0);
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll), (12 + 14 * 0.8) * us + 1.75 * M / (nccl / 4)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::simple), (17 + 14 * 3.6) * us + 1.75 * M / nccl));
    CHECK(rel(cs.of(CollAlgorithm::nccl_tree, Protocol::ll),
              (12 + 14 * 0.8) * us + M / (0.5 * nccl * 0.92 / 3.8)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_tree, Protocol::simple),
              (17 + 14 * 2.5) * us + M / (0.5 * nccl * 0.92)));
    CHECK(rel(cs.of(CollAlgorithm::one_shot), 7 * us + 7 * M / (448e9 * 0.6)));
    CHECK(rel(cs.of(CollAlgorithm::two_shot), 11 * us + 1.75 * M / (448e9 * 0.6)));
    CHECK(collective_cost(coll(CommKind::all_reduce, 8, M, l), m).seconds == cs.min());
    // p2p: one xGMI link, 3 us + M / (64e9 x 0.75); all-to-all: 5.4 us + 7/8 M / (448e9 x 0.81).
    CHECK(rel(p2p_message_time(l, m, M), 3 * us + M / (64e9 * 0.75)));
    CHECK(rel(collective_cost(coll(CommKind::all_to_all, 8, M, l), m).seconds,
              5.4 * us + 0.875 * M / (448e9 * 0.81)));
  }
  // 16 KiB: one_shot 7 + 114688 / 268.8e9 = 7.43 us; 1 MiB: two_shot 11 + 6.83 = 17.83 us;
  // 256 MiB: ring Simple 67.4 + 469762048 / 336e9 = 1465.5 us (two_shot 1758.6, tree 1788.8).
  CHECK(collective_cost(coll(CommKind::all_reduce, 8, 16 * KiB, l), m).algorithm == CollAlgorithm::one_shot);
  CHECK(collective_cost(coll(CommKind::all_reduce, 8, 1 * MiB, l), m).algorithm == CollAlgorithm::two_shot);
  const CollectiveChoice lg = collective_cost(coll(CommKind::all_reduce, 8, 256 * MiB, l), m);
  CHECK(lg.algorithm == CollAlgorithm::nccl_ring);
  CHECK(lg.protocol == Protocol::simple);
  CHECK(lg.seconds == Approx(1465.5e-6).epsilon(1e-3));
  // A pair (g = 2) of the mesh uses the one link between them: ring bw 64 GB/s.
  const LinkCost pair = one_level(m, 0, 2);
  CHECK(rel(candidates(coll(CommKind::all_reduce, 2, 1 * MiB, pair), m)
                .of(CollAlgorithm::nccl_ring, Protocol::simple),
            (17 + 2 * 3.6) * us + 1.0 * MiB / (64e9 * 0.75)));
}

// ---- ring: cube-sip's sip level (machines/cube-sip.yaml) ----------------------------------
// fanout 8, link_bw 200 GB/s, ring: 2 links of b = 100 GB/s; the 8 members span the ring: both
// directions, ring bw 200 GB/s, 1 hop a step, 7 steps; all-to-all: the cut through the middle
// carries |A||B| M/g = 16 M/8 over 2 links: a2a bw = (7/8) 8 x 2 x 100e9 / 16 = 87.5 GB/s; one
// path 100 GB/s. fabric ici (NVLINK rows, link_efficiency 0.8 -> 160e9), no peer kernels.
TEST_CASE("collectives: ring level hand-computed per protocol", "[collectives]") {
  const MachineSpec m = machine("cube-sip.yaml");
  REQUIRE(m.levels[1].topology == LinkTopology::ring);
  const LinkCost l = one_level(m, 1, 8);
  const LevelPaths p = level_paths(m.levels[1], 8, 1);
  CHECK(p.ring_bw == 200e9);
  CHECK(p.ring_steps == 7);
  CHECK(p.a2a_bw == Approx(87.5e9));
  CHECK(p.p2p_bw == 100e9);
  const double nccl = 200e9 * 0.8;
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    const Cands cs = candidates(coll(CommKind::all_reduce, 8, M, l), m);
    CHECK(cs.n == 6);  // ring and tree x 3 protocols; no one/two-shot (not a peer fabric)
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll), (6.6 + 14 * 0.6) * us + 1.75 * M / (nccl / 4)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll128),
              (14 + 14 * 1.9) * us + 1.75 * M / (nccl * 0.92)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::simple), (8.4 + 14 * 3.4) * us + 1.75 * M / nccl));
    CHECK(rel(cs.of(CollAlgorithm::nccl_tree, Protocol::ll128),
              (14 + 14 * 1.25) * us + M / (0.5 * nccl * 0.92 * 7 / 9)));
    CHECK(collective_cost(coll(CommKind::all_reduce, 8, M, l), m).seconds == cs.min());
    // all-to-all: direct 5.4 us + 7 x 0 + 7/8 M / (87.5e9 x 0.81); p2p 0.3 us + M / (100e9 x 0.8).
    CHECK(rel(collective_cost(coll(CommKind::all_to_all, 8, M, l), m).seconds,
              5.4 * us + 0.875 * M / (87.5e9 * 0.81)));
    CHECK(rel(p2p_message_time(l, m, M), 0.3 * us + M / (100e9 * 0.8)));
  }
  // 16 KiB: ring LL 15 + 28672 / 40e9 = 15.72 us; 1 MiB: tree LL128 31.5 + 1048576 / 57.24e9 =
  // 49.82 us (ring LL128 53.07); 256 MiB: ring Simple 56 + 469762048 / 160e9 = 2992 us.
  const CollectiveChoice s = collective_cost(coll(CommKind::all_reduce, 8, 16 * KiB, l), m);
  CHECK((s.algorithm == CollAlgorithm::nccl_ring && s.protocol == Protocol::ll));
  const CollectiveChoice md = collective_cost(coll(CommKind::all_reduce, 8, 1 * MiB, l), m);
  CHECK((md.algorithm == CollAlgorithm::nccl_tree && md.protocol == Protocol::ll128));
  CHECK(md.seconds == Approx(49.82e-6).epsilon(1e-3));
  const CollectiveChoice lg = collective_cost(coll(CommKind::all_reduce, 8, 256 * MiB, l), m);
  CHECK((lg.algorithm == CollAlgorithm::nccl_ring && lg.protocol == Protocol::simple));
  CHECK(lg.seconds == Approx(2992e-6).epsilon(1e-3));
  // Every other member (g = 4, stride 2): a sub-ring of 2-hop steps, its links shared with the
  // interleaved group: ring bw 2 x 100e9 / 2 = 100 GB/s, 3 steps of 2 hops.
  const LinkCost half = one_level(m, 1, 4, 2);
  CHECK(rel(candidates(coll(CommKind::all_reduce, 4, 1 * MiB, half), m)
                .of(CollAlgorithm::nccl_ring, Protocol::simple),
            (8.4 + 6 * 3.4 * 2) * us + 1.5 * MiB / (100e9 * 0.8)));
}

// ---- torus: TPU v4 cube 4x4x4 (machines/tpu-v4.yaml) ---------------------------------------
// 64 chips, link_bw 300 GB/s over 6 links of b = 50 GB/s; each dimension of 4 is a sub-ring in
// both directions: 100 GB/s per dimension, ring bw 300 GB/s, steps 3 x (4-1) = 9 (one pass
// dimension by dimension), 1 hop each; all-to-all: the cut across a dimension, (63/64) 4 x 2 x
// 50e9 / 4 = 98.4375 GB/s. ici: NVLINK rows, link_efficiency 0.8 (240e9); tree depth 63 (chain).
TEST_CASE("collectives: torus level hand-computed with dimension-by-dimension steps", "[collectives]") {
  const MachineSpec m = machine("tpu-v4.yaml");
  REQUIRE(m.levels[0].topology == LinkTopology::torus);
  const LinkCost l = one_level(m, 0, 64);
  const LevelPaths p = level_paths(m.levels[0], 64, 1);
  CHECK(p.ring_bw == Approx(300e9));
  CHECK(p.ring_steps == 9);
  CHECK(p.a2a_bw == Approx(98.4375e9));
  const double nccl = 300e9 * 0.8, f = 2.0 * 63 / 64;
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    const Cands cs = candidates(coll(CommKind::all_reduce, 64, M, l), m);
    CHECK(cs.n == 6);
    // all-reduce: 2 x 9 = 18 steps, 2(63/64) M.
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll), (6.6 + 18 * 0.6) * us + f * M / (nccl / 4)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::simple), (8.4 + 18 * 3.4) * us + f * M / nccl));
    CHECK(rel(cs.of(CollAlgorithm::nccl_tree, Protocol::ll),
              (6.8 + 2 * 63 * 0.6) * us + M / (0.5 * nccl * 0.92 / 3.8)));
    CHECK(collective_cost(coll(CommKind::all_reduce, 64, M, l), m).seconds == cs.min());
    // all-gather: 9 steps of 63/64 M.
    CHECK(rel(
        candidates(coll(CommKind::all_gather, 64, M, l), m).of(CollAlgorithm::nccl_ring, Protocol::simple),
        (8.4 + 9 * 3.4) * us + 63.0 / 64 * M / nccl));
    CHECK(rel(collective_cost(coll(CommKind::all_to_all, 64, M, l), m).seconds,
              5.4 * us + 63.0 / 64 * M / (98.4375e9 * 0.81)));
  }
  // 16 KiB: ring LL 17.4 + 2(63/64) 16384 / 60e9 = 17.94 us.
  const CollectiveChoice s = collective_cost(coll(CommKind::all_reduce, 64, 16 * KiB, l), m);
  CHECK((s.algorithm == CollAlgorithm::nccl_ring && s.protocol == Protocol::ll));
  CHECK(s.seconds == Approx(17.4e-6 + f * 16384 / 60e9));
  const CollectiveChoice lg = collective_cost(coll(CommKind::all_reduce, 64, 256 * MiB, l), m);
  CHECK((lg.algorithm == CollAlgorithm::nccl_ring && lg.protocol == Protocol::simple));
}

// ---- legacy ring --------------------------------------------------------------------------
TEST_CASE("collectives: algorithm ring is the legacy alpha-beta ring", "[collectives]") {
  MachineSpec m = machine("dgx-h100.yaml");
  for (auto& lv : m.levels) lv.collectives.algorithms = 1u << static_cast<unsigned>(CollAlgorithm::ring);
  const LinkCost l = one_level(m, 0, 8);
  // 2(n-1)/n M / B + 2(n-1) alpha = 1.75 x 1 MiB / 450e9 + 14 x 3 us.
  const CollectiveChoice c = collective_cost(coll(CommKind::all_reduce, 8, 1 * MiB, l), m);
  CHECK(c.algorithm == CollAlgorithm::ring);
  CHECK(c.seconds == 1.75 * MiB / 450e9 + 14 * 3e-6);
  CHECK(p2p_message_time(l, m, 1 * MiB) == 3e-6 + 1 * MiB / 450e9);
}

// ---- hierarchical = flat on one level ------------------------------------------------------
TEST_CASE("collectives: a group inside one level is priced as that level alone", "[collectives]") {
  // A TP group of 8 inside a DGX H100 node, seen from the two-level machine and from a machine
  // of the node alone: same candidates, same time; shape flat (no hierarchical candidate).
  const MachineSpec m = machine("dgx-h100.yaml");
  MachineSpec node = m;
  node.levels.resize(1);
  for (const auto k :
       {CommKind::all_reduce, CommKind::all_gather, CommKind::reduce_scatter, CommKind::all_to_all})
    for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
      const CollectiveChoice a = collective_cost(coll(k, 8, M, one_level(m, 0, 8)), m);
      const CollectiveChoice b = collective_cost(coll(k, 8, M, one_level(node, 0, 8)), node);
      CHECK(a.seconds == b.seconds);
      CHECK(a.algorithm == b.algorithm);
      CHECK(a.shape == CommShape::flat);
    }
  // A group of 4 nodes x 1 GPU (only the cluster digit): single-level on the network level.
  LinkCost x = one_level(m, 1, 4);
  const Cands cs = candidates(coll(CommKind::all_reduce, 4, 1 * MiB, x), m);
  for (int i = 0; i < cs.n; ++i) CHECK(cs.v[static_cast<std::size_t>(i)].shape == CommShape::flat);
}

// A group of 8 GPUs x 4 nodes on DGX H100 (TP 32). NCCL (v2.30.7 tuning.cc) runs a group that
// crosses nodes as one ring, tree or NVLS tree: no hierarchical candidate (docs/physics.md §5
// "Across nodes"). NVLS tree by hand: 25 us + 2 log2i(4) x 20.9 us; bandwidth min(NVLS in the
// node 450e9 x 0.824 x 0.71, 8 NICs x 50e9 (uplink 400e9 / 8 each) / 2 up and down the tree).
TEST_CASE("collectives: no hierarchical all-reduce across DGX H100 nodes - NVLS tree by hand",
          "[collectives]") {
  const MachineSpec m = machine("dgx-h100.yaml");
  const LinkCost l = across_nodes(m, 4);
  const double M = 16 * MiB;
  const Cands cs = candidates(coll(CommKind::all_reduce, 32, M, l), m);
  double nvls_tree = -1;
  for (int i = 0; i < cs.n; ++i) {
    const CollectiveChoice& c = cs.v[static_cast<std::size_t>(i)];
    CHECK(c.shape == CommShape::flat);
    if (c.algorithm == CollAlgorithm::in_network) nvls_tree = c.seconds;
  }
  const double bw = std::min(450e9 * 0.824 * 0.71, 8 * 50e9 / 2);
  CHECK(rel(nvls_tree, (25 + 2 * 2 * 20.9) * us + M / bw));
  CHECK(collective_cost(coll(CommKind::all_reduce, 32, M, l), m).seconds == cs.min());
}

// The flat ring and tree through TP 16 = 8 GPUs x 2 DGX H100 nodes. Ring order: inner digit
// fastest, so of the 16 ring edges 2 cross nodes and 14 stay on NVLink; an all-reduce's 30
// steps split 30 x 14/16 = 26.25 NVLink hops and 30 x 2/16 = 3.75 network hops. A ring that
// crosses nodes pays NCCL's proxy overhead on every intra-node step: max(NVLink hop, 1 us)
// (x3 = 3 us for Simple; NCCL v2.30.7 getNetOverhead). Bandwidth the slower level's: NVLink
// 450e9 x 0.824 = 370.8e9 against the network's channels over the node's 8 NICs, min(8 x 50e9,
// uplink 400e9) = 400e9, x protocol factor; base the top (network) level's.
// Tree: chain of 7 inside (NVLINK hop), log2i(2) = 1 level across (NET hop), both ways.
TEST_CASE("collectives: flat ring and tree across two levels by hand", "[collectives]") {
  const MachineSpec m = machine("dgx-h100.yaml");
  const LinkCost l = across_nodes(m, 2);
  const double M = 1 * MiB;
  const Cands cs = candidates(coll(CommKind::all_reduce, 16, M, l), m);
  const auto flat = [&](CollAlgorithm a, Protocol p) {
    for (int i = 0; i < cs.n; ++i) {
      const CollectiveChoice& c = cs.v[static_cast<std::size_t>(i)];
      if (c.shape == CommShape::flat && c.algorithm == a && c.protocol == p) return c.seconds;
    }
    return -1.0;
  };
  const double b = 450e9 * 0.824;
  CHECK(rel(flat(CollAlgorithm::nccl_ring, Protocol::ll),
            (6.6 + 26.25 * 1.0 + 3.75 * 2.7) * us + 1.875 * M / (b / 4)));
  CHECK(rel(flat(CollAlgorithm::nccl_ring, Protocol::simple),
            (8.4 + 26.25 * 3.4 + 3.75 * 14.0) * us + 1.875 * M / b));
  // The tree/LL NET hop is the measured InfiniBand one of the machine file (8.6 us, not NCCL's 5).
  CHECK(rel(flat(CollAlgorithm::nccl_tree, Protocol::ll),
            (6.8 + 2 * 7 * 0.6 + 2 * 1 * 8.6) * us + M / (0.5 * b * 0.92 / 3.8)));
  CHECK(rel(flat(CollAlgorithm::nccl_tree, Protocol::ll128),
            (14.0 + 2 * 7 * 1.25 + 2 * 1 * 8.5) * us +
                M / (0.5 * b * 0.92 * 7 / 9)));  // NVLink LL128 7/9 is the slower
  // NVLS tree with 2 nodes: 25 + 2 x 1 x 20.9 us; each NIC carries its 1/8 shard once each way.
  CHECK(rel(flat(CollAlgorithm::in_network, Protocol::simple),
            (25 + 2 * 20.9) * us + M / std::min(450e9 * 0.824 * 0.71, 8 * 50e9)));
  CHECK(cs.n == 3 + 3 + 1);  // flat ring x3, flat tree x3, NVLS tree
  CHECK(collective_cost(coll(CommKind::all_reduce, 16, M, l), m).seconds == cs.min());
}

// The 70B two-node case: a 16-rank all-reduce of 16 kB across two DGX H100 nodes. NCCL's
// own model (v2.30.7) picks the tree with LL: 6.8 + 2 (7 x 0.6 + 1 x 8.6) = 32.4 us + M /
// (0.5 x 370.8e9 x 0.92 / 3.8): tuning.cc's constants but the NET hop, 8.6 us as InfiniBand
// H100 nodes measure it (machines/dgx-h100.yaml; nccl-tests #309 timed this very call at
// 32.74 us). With NCCL's 5 us hop the fabric default gives 25.2 us.
TEST_CASE("collectives: 16-rank 16 kB all-reduce across two DGX H100 nodes is NCCL's tree LL",
          "[collectives]") {
  const MachineSpec m = machine("dgx-h100.yaml");
  const LinkCost l = across_nodes(m, 2);
  const double M = 16384;
  const CollectiveChoice c = collective_cost(coll(CommKind::all_reduce, 16, M, l), m);
  CHECK(c.algorithm == CollAlgorithm::nccl_tree);
  CHECK(c.protocol == Protocol::ll);
  CHECK(c.shape == CommShape::flat);
  CHECK(rel(c.seconds, 32.4 * us + M / (0.5 * 450e9 * 0.824 * 0.92 / 3.8)));
  // explain's breakdown of it: 6.8 us + 14 x 0.6 us (node) + 2 x 8.6 us (cluster) + M / B.
  const CollectiveTerms t = collective_terms(coll(CommKind::all_reduce, 16, M, l), m, {}, c);
  REQUIRE(t.any);
  CHECK(rel(t.base_s, 6.8 * us));
  REQUIRE(t.levels == 2);
  CHECK(t.level[0] == 0);
  CHECK(t.steps[0] == 14);
  CHECK(rel(t.hop_s[0], 0.6 * us));
  CHECK(t.level[1] == 1);
  CHECK(t.steps[1] == 2);
  CHECK(rel(t.hop_s[1], 8.6 * us));
  CHECK(rel(t.base_s + t.steps[0] * t.hop_s[0] + t.steps[1] * t.hop_s[1] + t.bandwidth_s, c.seconds));
  // A candidate it does not break down (one node's one-shot) says nothing.
  const LinkCost node = one_level(m, 0, 8);
  const CollectiveChoice in_node = collective_cost(coll(CommKind::all_reduce, 8, M, node), m);
  CHECK_FALSE(collective_terms(coll(CommKind::all_reduce, 8, M, node), m, {}, in_node).any);
  MachineSpec nccl_hop = m;
  nccl_hop.levels[1].collectives.tree[0].hop = 5.0 * us;
  CHECK(rel(collective_cost(coll(CommKind::all_reduce, 16, M, l), nccl_hop).seconds,
            25.2 * us + M / (0.5 * 450e9 * 0.824 * 0.92 / 3.8)));
}

// ---- properties ----------------------------------------------------------------------------

// A random group on `m`: members per level (dividing the fanout), strides, shares; the flat
// fields as compute_layout's link_for computes them.
LinkCost random_group(const MachineSpec& m, std::mt19937_64& rng, int& ranks) {
  LinkCost l;
  ranks = 1;
  int top = -1;
  const int levels = static_cast<int>(m.levels.size());
  for (int d = 0; d < levels; ++d) {
    const auto i = static_cast<std::size_t>(d);
    const std::int64_t n = m.levels[i].fanout;
    std::vector<std::int64_t> divs;
    for (std::int64_t g = 1; g <= n; ++g)
      if (n % g == 0) divs.push_back(g);
    const std::int64_t g = divs[std::uniform_int_distribution<std::size_t>(0, divs.size() - 1)(rng)];
    std::vector<std::int64_t> strides;
    for (std::int64_t s = 1; s * g <= n; ++s)
      if ((n / g) % s == 0) strides.push_back(s);
    l.members[i] = static_cast<std::int32_t>(g);
    l.stride[i] = static_cast<std::int32_t>(
        strides[std::uniform_int_distribution<std::size_t>(0, strides.size() - 1)(rng)]);
    l.share[i] = g > 1 ? std::uniform_int_distribution<std::int32_t>(1, 8)(rng) : 1;
    ranks *= static_cast<int>(g);
    if (g > 1) top = d;
  }
  if (top < 0) {  // at least two members somewhere
    top = std::uniform_int_distribution<int>(0, levels - 1)(rng);
    const auto i = static_cast<std::size_t>(top);
    l.members[i] = 2;
    l.stride[i] = 1;
    ranks = 2;
  }
  const LevelSpec& lv = m.levels[static_cast<std::size_t>(top)];
  l.level = top + 1;
  l.latency = lv.latency;
  l.sharing = l.share[static_cast<std::size_t>(top)];
  l.bandwidth = lv.uplink_bw > 0 ? std::min(lv.link_bw, lv.uplink_bw / l.sharing) : lv.link_bw;
  return l;
}

// The flat fields of `l` after the machine changed (link_for's rule).
void refresh(LinkCost& l, const MachineSpec& m) {
  const LevelSpec& lv = m.levels[static_cast<std::size_t>(l.level - 1)];
  l.latency = lv.latency;
  l.bandwidth = lv.uplink_bw > 0 ? std::min(lv.link_bw, lv.uplink_bw / l.sharing) : lv.link_bw;
}

std::vector<std::filesystem::path> machine_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(TESSERA_SOURCE_DIR) / "machines"))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

double time_of(CommKind k, int ranks, double M, const LinkCost& l, const MachineSpec& m) {
  if (k == CommKind::p2p) return p2p_message_time(l, m, M);
  return collective_cost(coll(k, ranks, M, l), m).seconds;
}

constexpr std::array<CommKind, 5> kKinds = {CommKind::all_reduce, CommKind::all_gather,
                                            CommKind::reduce_scatter, CommKind::all_to_all, CommKind::p2p};

// Every knob of one level, made better (faster) by `up`: bandwidths and bw factors up (bw
// factors capped at 1), latencies and algorithm constants down.
void improve(LevelSpec& lv, int knob, double up) {
  LevelCollectives& c = lv.collectives;
  const auto faster_cost = [&](AlgorithmCost& a, int which) {
    if (which == 0) a.base /= up;
    if (which == 1) a.hop /= up;
    if (which == 2 && a.bw_factor > 0) a.bw_factor = std::min(1.0, a.bw_factor * up);
  };
  switch (knob / 3) {
    case 0:
      if (knob == 0) lv.link_bw *= up;
      if (knob == 1 && lv.uplink_bw > 0) lv.uplink_bw *= up;
      if (knob == 2) lv.latency /= up;
      return;
    case 1:
      for (auto& a : c.ring) faster_cost(a, knob % 3);
      return;
    case 2:
      for (auto& a : c.tree) faster_cost(a, knob % 3);
      return;
    case 3:
      faster_cost(c.one_shot, knob % 3);
      return;
    case 4:
      faster_cost(c.two_shot, knob % 3);
      return;
    case 5:
      faster_cost(c.in_network_cost, knob % 3);
      return;
    case 6:
      faster_cost(c.direct, knob % 3);
      return;
    case 7:
      if (knob % 3 == 0) c.link_efficiency = std::min(1.0, c.link_efficiency * up);
      return;
  }
}
constexpr int kKnobs = 24;

TEST_CASE("collectives: monotone in every bandwidth and latency knob on every shipped machine",
          "[collectives][property]") {
  std::mt19937_64 rng(11);
  const auto files = machine_files();
  REQUIRE(files.size() >= 11);
  int checks = 0;
  for (const auto& f : files) {
    const MachineSpec m = load_machine_file(f.string());
    INFO(f.filename().string());
    for (int trial = 0; trial < 40; ++trial) {
      int ranks = 1;
      LinkCost l = random_group(m, rng, ranks);
      const double M = std::pow(2.0, std::uniform_real_distribution<double>(4, 30)(rng));
      for (const CommKind k : kKinds) {
        const double t0 = time_of(k, ranks, M, l, m);
        for (int d = 0; d < static_cast<int>(m.levels.size()); ++d)
          for (int knob = 0; knob < kKnobs; ++knob) {
            MachineSpec better = m;
            improve(better.levels[static_cast<std::size_t>(d)], knob, 1.37);
            LinkCost lb = l;
            refresh(lb, better);
            const double t1 = time_of(k, ranks, M, lb, better);
            INFO("kind " << comm_kind_name(k) << " level " << d << " knob " << knob << " ranks " << ranks
                         << " M " << M << " top " << l.level);
            CHECK(t1 <= t0 * (1 + 1e-12));
            ++checks;
          }
      }
    }
  }
  CHECK(checks > 10000);
}

// The latency model's rates (calibrated's fitted bandwidth efficiency and per-step latency):
// more efficiency never slower, less extra latency never slower.
TEST_CASE("collectives: monotone in the latency model's comm rates", "[collectives][property]") {
  std::mt19937_64 rng(5);
  for (const auto& f : machine_files()) {
    const MachineSpec m = load_machine_file(f.string());
    INFO(f.filename().string());
    for (int trial = 0; trial < 40; ++trial) {
      int ranks = 1;
      const LinkCost l = random_group(m, rng, ranks);
      const double M = std::pow(2.0, std::uniform_real_distribution<double>(4, 30)(rng));
      const CommRates base{0.7, 2e-6}, more_bw{0.9, 2e-6}, less_lat{0.7, 1e-6};
      for (const CommKind k : kKinds) {
        INFO("kind " << comm_kind_name(k));
        const auto t = [&](const CommRates& r) {
          return k == CommKind::p2p ? p2p_message_time(l, m, M, r)
                                    : collective_cost(coll(k, ranks, M, l), m, r).seconds;
        };
        CHECK(t(more_bw) <= t(base) * (1 + 1e-12));
        CHECK(t(less_lat) <= t(base) * (1 + 1e-12));
      }
    }
  }
}

TEST_CASE("collectives: allowing one more algorithm never makes a collective slower",
          "[collectives][property]") {
  std::mt19937_64 rng(7);
  for (const auto& f : machine_files()) {
    const MachineSpec m = load_machine_file(f.string());
    INFO(f.filename().string());
    for (int trial = 0; trial < 40; ++trial) {
      int ranks = 1;
      const LinkCost l = random_group(m, rng, ranks);
      const double M = std::pow(2.0, std::uniform_real_distribution<double>(4, 30)(rng));
      // A random non-empty subset of the non-legacy algorithms on every level, then one more.
      MachineSpec a = m;
      for (auto& lv : a.levels)
        lv.collectives.algorithms =
            (std::uniform_int_distribution<std::uint32_t>(1, 63)(rng) << 1) & kAutoAlgorithms;
      for (const CommKind k :
           {CommKind::all_reduce, CommKind::all_gather, CommKind::reduce_scatter, CommKind::all_to_all}) {
        const CollectiveChoice t0 = collective_cost(coll(k, ranks, M, l), a);
        // The legacy ring here is the fallback for "nothing allowed applies" (the subsets hold no
        // legacy ring): the property is about sets that run the collective.
        if (!t0.any || t0.algorithm == CollAlgorithm::ring) continue;
        for (std::size_t d = 0; d < a.levels.size(); ++d)
          for (int alg = 0; alg < kCollAlgorithmCount; ++alg) {
            MachineSpec b = a;
            b.levels[d].collectives.algorithms |= 1u << static_cast<unsigned>(alg);
            INFO("kind " << comm_kind_name(k) << " level " << d << " + "
                         << coll_algorithm_name(static_cast<CollAlgorithm>(alg)));
            CHECK(collective_cost(coll(k, ranks, M, l), b).seconds <= t0.seconds * (1 + 1e-12));
          }
      }
    }
  }
}

TEST_CASE("collectives: reported time is the minimum of the candidates on every shipped machine",
          "[collectives][property]") {
  std::mt19937_64 rng(3);
  for (const auto& f : machine_files()) {
    const MachineSpec m = load_machine_file(f.string());
    INFO(f.filename().string());
    for (int trial = 0; trial < 60; ++trial) {
      int ranks = 1;
      const LinkCost l = random_group(m, rng, ranks);
      const double M = std::pow(2.0, std::uniform_real_distribution<double>(0, 31)(rng));
      for (const CommKind k : kKinds) {
        const Collective c = coll(k, ranks, M, l);
        const Cands cs = candidates(c, m);
        const CollectiveChoice best = collective_cost(c, m);
        REQUIRE(cs.n > 0);
        CHECK(cs.n < kMaxCollectiveCandidates);
        CHECK(best.any);
        CHECK(best.seconds == cs.min());
        CHECK(best.seconds > 0);
      }
    }
  }
}

// All-reduce of the same M on more ranks of one switch level, by the formulas: the ring's
// bandwidth term 2(g-1)/g M grows with g and so do its 2(g-1) steps; the tree's depth g-1 grows;
// one-shot's (g-1) M grows; two-shot's 2(g-1)/g grows; NVLS does not depend on g. So on a
// switch every candidate is non-decreasing in g and so is the minimum. Not on a full mesh: g
// members use g-1 of the fanout-1 links (MI300X: 8 ranks reach 448 GB/s, 2 ranks 64 GB/s), so
// more ranks of the same M are cheaper there (checked below), as they are on real xGMI.
TEST_CASE("collectives: more ranks of the same M never cheaper for all-reduce on a switch level",
          "[collectives][property]") {
  for (const char* file : {"dgx-h100.yaml", "gb200-nvl72.yaml", "dgx-a100-80gb.yaml", "dgx-b200.yaml"}) {
    const MachineSpec m = machine(file);
    INFO(file);
    const int n = static_cast<int>(m.levels[0].fanout);
    for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
      double prev = 0;
      for (int g = 2; g <= n; ++g) {
        const double t = collective_cost(coll(CommKind::all_reduce, g, M, one_level(m, 0, g)), m).seconds;
        INFO("g " << g << " M " << M);
        CHECK(t >= prev * (1 - 1e-12));
        prev = t;
      }
    }
  }
}

TEST_CASE("collectives: on a full mesh more ranks of the same large M are cheaper", "[collectives]") {
  const MachineSpec m = machine("mi300x.yaml");
  // 256 MiB ring Simple: g = 2: 17 + 2 x 3.6 us + 1 x M / (64e9 x 0.75) = 5.62 ms; g = 8: 1.47 ms.
  const double t2 = collective_cost(coll(CommKind::all_reduce, 2, 256 * MiB, one_level(m, 0, 2)), m).seconds;
  const double t8 = collective_cost(coll(CommKind::all_reduce, 8, 256 * MiB, one_level(m, 0, 8)), m).seconds;
  CHECK(t2 == Approx((17 + 2 * 3.6) * us + 256 * MiB / 48e9));
  CHECK(t8 == Approx(1465.5e-6).epsilon(1e-3));
}

// NCCL's tree across nodes climbs log2i(nNodes) = floor(log2 nNodes) levels (v2.20.5-1
// tuning.cc: 2 * (... + log2i(nNodes) * interLat)): the height of a binary tree of n nodes
// (3 nodes: a root and two leaves, 1 level). On the DGX A100 cluster (NET row: tree LL hop 5 us,
// base 6.8 us), 3 nodes: 6.8 + 2 x 1 x 5 = 16.8 us + M / (0.5 x 25e9 x 0.92/3.8); 20 nodes:
// log2i(20) = 4 levels: 6.8 + 2 x 4 x 5 = 46.8 us.
TEST_CASE("collectives: tree depth across network nodes is floor(log2 n)", "[collectives]") {
  const MachineSpec m = machine("dgx-a100-80gb.yaml");
  const double M = 4 * KiB;
  const LinkCost three = one_level(m, 1, 3);
  CHECK(rel(candidates(coll(CommKind::all_reduce, 3, M, three), m).of(CollAlgorithm::nccl_tree, Protocol::ll),
            16.8 * us + M / (0.5 * 25e9 * 0.92 / 3.8)));
  const LinkCost twenty = one_level(m, 1, 20);
  CHECK(
      rel(candidates(coll(CommKind::all_reduce, 20, M, twenty), m).of(CollAlgorithm::nccl_tree, Protocol::ll),
          46.8 * us + M / (0.5 * 25e9 * 0.92 / 3.8)));
  const LinkCost four = one_level(m, 1, 4);
  CHECK(rel(candidates(coll(CommKind::all_reduce, 4, M, four), m).of(CollAlgorithm::nccl_tree, Protocol::ll),
            (6.8 + 2 * 2 * 5.0) * us + M / (0.5 * 25e9 * 0.92 / 3.8)));
}

// An all-to-all across nodes: every member of the group in a node sends its cross-node share at
// once, so they share the node's uplink. A DGX H100 variant with uplink_bw 100 GB/s per node
// (8 GPUs, link_bw 50 GB/s): EP 16 = 8 GPUs x 2 nodes, the cross-node half of M per GPU over
// 100e9 / 8 = 12.5 GB/s (network direct: 8.4 us + (n-1) x 0 hop, bw_factor 1); the node half
// over NVLink 7/16 M / (450e9 x 0.54) at the same time; the top level's direct base is the
// network's 8.4 us: t = 8.4 us + max(7/16 M / 243e9, 8/16 M / 12.5e9) (before the fix the
// cross-node half ran at min(50e9, 100e9 / 1) = 50 GB/s per GPU, 4x too fast).
TEST_CASE("collectives: all-to-all across levels shares the uplink among the group's members",
          "[collectives]") {
  MachineSpec m = machine("dgx-h100.yaml");
  m.levels[1].uplink_bw = 100e9;
  LinkCost l = one_level(m, 1, 2);
  l.members[0] = 8;
  l.bandwidth = std::min(50e9, 100e9 / 1);
  const double M = 8 * MiB;
  const double t = collective_cost(coll(CommKind::all_to_all, 16, M, l), m).seconds;
  // The network level's direct base: dgx-h100's measured MoE all-to-all base (56.8 us).
  CHECK(rel(t, 56.8 * us + std::max(7.0 / 16 * M / 243e9, 8.0 / 16 * M / 12.5e9)));
}

// The KV-head group is the first r members of the TP group (inner digit fastest). TP 12 placed
// on cube-sip's cubes (tp_placement 1: members are distinct cubes) takes 6 cubes of a sip
// (largest divisor of 12 that fits 8) x 2 sips; with 3 KV heads r = 12 / 3 = 4: members 0..3,
// 4 cubes of one sip. The parent commit (e075809) put that group on the sip level (cumulative
// product 6 >= 4 at the sip digit); it must stay there (legacy bit for bit), with 4 members.
TEST_CASE("layout: the KV-head subgroup is the first r TP members", "[collectives][layout]") {
  const MachineSpec m = machine("cube-sip.yaml");
  ModelSpec model;
  model.name = "kv3";
  model.layers = 4;
  model.hidden = 3072;
  model.heads = 24;
  model.kv_heads = 3;
  model.head_dim = 128;
  model.ffn = 8192;
  model.vocab = 32000;
  Workload w;
  w.context = 4096;
  ParallelConfig c;
  c.tp = 12;
  c.tp_placement = 1;
  Layout out;
  compute_layout(model, m, w, c, out);
  INFO("reason " << static_cast<int>(out.reason));
  REQUIRE(out.valid);
  CHECK(out.tp.level == 3);
  CHECK(out.tp.members[1] == 6);
  CHECK(out.tp.members[2] == 2);
  CHECK(out.kv_group.level == 2);
  CHECK(out.kv_group.bandwidth == 200e9);
  CHECK(out.kv_group.latency == 0.3e-6);
  CHECK(out.kv_group.members[1] == 4);
  CHECK(out.kv_group.members[2] == 1);
}

// ---- degenerate inputs ---------------------------------------------------------------------
TEST_CASE("collectives: degenerate groups and messages", "[collectives]") {
  const MachineSpec m = machine("dgx-h100.yaml");
  // One rank: nothing to do.
  CHECK(collective_cost(coll(CommKind::all_reduce, 1, 1 * MiB, one_level(m, 0, 1)), m).seconds == 0);
  CHECK_FALSE(collective_cost(coll(CommKind::all_reduce, 1, 1 * MiB, one_level(m, 0, 1)), m).any);
  // Zero bytes: the cheapest base latency (one_shot's 3.2 us), never 0 and never infinite.
  CHECK(collective_cost(coll(CommKind::all_reduce, 8, 0, one_level(m, 0, 8)), m).seconds == Approx(3.2e-6));
  // A link without a shape (level, bandwidth and latency only) is the group of c.ranks on that
  // level, not a pair: the same as with members[0] = 8.
  LinkCost bare;
  bare.level = 1;
  bare.bandwidth = 450e9;
  bare.latency = 3e-6;
  for (const double M : {16 * KiB, 256 * MiB})
    CHECK(collective_cost(coll(CommKind::all_reduce, 8, M, bare), m).seconds ==
          collective_cost(coll(CommKind::all_reduce, 8, M, one_level(m, 0, 8)), m).seconds);
  // A link beyond the machine: the legacy ring on the link's own bandwidth and latency.
  LinkCost beyond = one_level(m, 0, 8);
  beyond.level = 5;
  CHECK(collective_cost(coll(CommKind::all_reduce, 8, 1 * MiB, beyond), m).seconds ==
        1.75 * MiB / 450e9 + 14 * 3e-6);
}

// A level whose allowed algorithms cannot run the collective (all-to-all on `algorithm:
// nccl_ring`, an all-gather on `algorithm: one_shot`) must not make the collective free.
TEST_CASE("collectives: no applicable algorithm is never free", "[collectives]") {
  MachineSpec m = machine("dgx-h100.yaml");
  const LinkCost l = one_level(m, 0, 8);
  m.levels[0].collectives.algorithms = 1u << static_cast<unsigned>(CollAlgorithm::nccl_ring);
  const CollectiveChoice a2a = collective_cost(coll(CommKind::all_to_all, 8, 1 * MiB, l), m);
  CHECK(a2a.any);
  CHECK(a2a.seconds > 0);
  m.levels[0].collectives.algorithms = 1u << static_cast<unsigned>(CollAlgorithm::one_shot);
  const CollectiveChoice ag = collective_cost(coll(CommKind::all_gather, 8, 1 * MiB, l), m);
  CHECK(ag.any);
  CHECK(ag.seconds > 0);
  // Across levels: all-to-all over 2 nodes x 8 with the top level ring/tree only.
  MachineSpec x = machine("dgx-h100.yaml");
  x.levels[1].collectives.algorithms = (1u << static_cast<unsigned>(CollAlgorithm::nccl_ring)) |
                                       (1u << static_cast<unsigned>(CollAlgorithm::nccl_tree));
  LinkCost two = one_level(x, 1, 2);
  two.members[0] = 8;
  CHECK(collective_cost(coll(CommKind::all_to_all, 16, 1 * MiB, two), x).seconds > 0);
}

// ---- newer fabrics: NeuronLink torus and ring (machines/trn2.yaml) ------------------------------
// Trn2 instance: 4x4 torus, link_bw 512 GB/s over 4 links of b = 128 GB/s; 16 chips span both
// dimensions (2 paths each): ring bw 2 x 2 x 128 = 512 GB/s; steps (4-1) + (4-1) = 6 per pass
// (neuronlink rings go dimension by dimension, as ici); all-to-all: the cut across a dimension,
// (15/16) 4 x 2 x 128e9 / (2 x 2) = 240 GB/s. Defaults: NVLINK rows, link_efficiency 0.8
// (409.6e9); tree depth 15 (chain); direct 5.4 us, 0.81.
TEST_CASE("collectives: Trn2 NeuronLink torus hand-computed with dimension-by-dimension steps",
          "[collectives]") {
  const MachineSpec m = machine("trn2.yaml");
  REQUIRE(m.levels[0].topology == LinkTopology::torus);
  REQUIRE(m.levels[0].collectives.fabric == Fabric::neuronlink);
  const LinkCost l = one_level(m, 0, 16);
  const LevelPaths p = level_paths(m.levels[0], 16, 1);
  CHECK(p.ring_bw == Approx(512e9));
  CHECK(p.ring_steps == 6);
  CHECK(p.a2a_bw == Approx(240e9));
  const double nccl = 512e9 * 0.8, f = 2.0 * 15 / 16;
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    const Cands cs = candidates(coll(CommKind::all_reduce, 16, M, l), m);
    CHECK(cs.n == 6);  // ring and tree x 3 protocols; no peer-memory kernels on NeuronLink
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll), (6.6 + 12 * 0.6) * us + f * M / (nccl / 4)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::simple), (8.4 + 12 * 3.4) * us + f * M / nccl));
    CHECK(rel(cs.of(CollAlgorithm::nccl_tree, Protocol::ll),
              (6.8 + 2 * 15 * 0.6) * us + M / (0.5 * nccl * 0.92 / 3.8)));
    CHECK(collective_cost(coll(CommKind::all_reduce, 16, M, l), m).seconds == cs.min());
    CHECK(rel(collective_cost(coll(CommKind::all_to_all, 16, M, l), m).seconds,
              5.4 * us + 15.0 / 16 * M / (240e9 * 0.81)));
  }
  // 16 KiB: ring LL 13.8 + 30720 / 102.4e9 = 14.1 us (the chosen algorithm).
  const CollectiveChoice s = collective_cost(coll(CommKind::all_reduce, 16, 16 * KiB, l), m);
  CHECK((s.algorithm == CollAlgorithm::nccl_ring && s.protocol == Protocol::ll));
  CHECK(s.seconds == Approx(13.8e-6 + f * 16384 / 102.4e9));
  // The same torus as an NCCL fabric steps through all 16 ranks: 30 steps, not 12.
  MachineSpec nv = m;
  const LevelCollectives keep = nv.levels[0].collectives;
  nv.levels[0].collectives.fabric = Fabric::nvlink;
  CHECK(rel(candidates(coll(CommKind::all_reduce, 16, 1 * MiB, l), nv)
                .of(CollAlgorithm::nccl_ring, Protocol::simple),
            (8.4 + 30 * 3.4) * us + f * MiB / nccl));
  CHECK(keep.fabric == Fabric::neuronlink);
  // UltraServer: 4 same-coordinate chips in a ring of 4, link_bw 128 GB/s over 2 links of 64:
  // the group spans the ring, ring bw 128 GB/s, 3 steps; all-gather Simple 8.4 + 3 x 3.4 us +
  // (3/4) M / (128e9 x 0.8).
  const LinkCost us4 = one_level(m, 1, 4);
  CHECK(rel(candidates(coll(CommKind::all_gather, 4, 1 * MiB, us4), m)
                .of(CollAlgorithm::nccl_ring, Protocol::simple),
            (8.4 + 3 * 3.4) * us + 0.75 * MiB / (128e9 * 0.8)));
}

// ---- newer fabrics: Gaudi 3 RoCE (machines/gaudi3.yaml) -----------------------------------------
// Node: 8 cards all-to-all over 21 x 200 GbE, link_bw 525 GB/s = 7 x b, b = 75 GB/s: ring bw
// 525 GB/s (the mesh's 7 links at once), 7 steps. Fabric roce: NCCL NET rows (ring hop {2.7, 4.0,
// 14.0} us, tree hop {5.0, 8.5, 28} us, tree LL128 x 120/128), link_efficiency 1, tree depth
// floor(log2 8) = 3, direct 8.4 us x 1, no peer kernels, no in-network reduction.
TEST_CASE("collectives: Gaudi 3 RoCE mesh hand-computed and hierarchical across nodes", "[collectives]") {
  const MachineSpec m = machine("gaudi3.yaml");
  REQUIRE(m.levels[0].collectives.fabric == Fabric::roce);
  const LinkCost l = one_level(m, 0, 8);
  const double b = 525e9;
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    const Cands cs = candidates(coll(CommKind::all_reduce, 8, M, l), m);
    CHECK(cs.n == 6);
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll), (6.6 + 14 * 2.7) * us + 1.75 * M / (b / 4)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::simple), (8.4 + 14 * 14.0) * us + 1.75 * M / b));
    CHECK(rel(cs.of(CollAlgorithm::nccl_tree, Protocol::ll),
              (6.8 + 2 * 3 * 5.0) * us + M / (0.5 * b * 0.92 / 3.8)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_tree, Protocol::ll128),
              (14.0 + 2 * 3 * 8.5) * us + M / (0.5 * b * 0.92 * 120 / 128)));
    CHECK(cs.of(CollAlgorithm::one_shot) < 0);
    CHECK(rel(collective_cost(coll(CommKind::all_to_all, 8, M, l), m).seconds, 8.4 * us + 0.875 * M / b));
  }
  // 16 KiB: tree LL 36.8 + 16384 / 63.55e9 = 37.06 us (ring LL 44.4 + 0.22 = 44.6 us).
  const CollectiveChoice s = collective_cost(coll(CommKind::all_reduce, 8, 16 * KiB, l), m);
  CHECK((s.algorithm == CollAlgorithm::nccl_tree && s.protocol == Protocol::ll));
  CHECK(s.seconds == Approx(36.8e-6 + 16384 / (0.5 * b * 0.92 / 3.8)));
  // Two nodes x 8: HCCL's hierarchical shape competes on roce (not on a `network` level).
  const LinkCost two = across_nodes(m, 2);
  const Cands x = candidates(coll(CommKind::all_reduce, 16, 16 * MiB, two), m);
  int hier = 0;
  for (int i = 0; i < x.n; ++i) hier += x.v[static_cast<std::size_t>(i)].shape == CommShape::hierarchical;
  CHECK(hier > 0);
  MachineSpec net = m;
  net.levels[1].collectives.fabric = Fabric::network;
  const Cands y = candidates(coll(CommKind::all_reduce, 16, 16 * MiB, two), net);
  for (int i = 0; i < y.n; ++i) CHECK(y.v[static_cast<std::size_t>(i)].shape == CommShape::flat);
  CHECK(collective_cost(coll(CommKind::all_reduce, 16, 16 * MiB, two), m).seconds == x.min());
}

// ---- newer machines: MI355X xGMI mesh on the fabric defaults (machines/mi355x.yaml) -------------
// 7 links x 76.8 GB/s = 537.6 GB/s per direction; xgmi defaults: RCCL gfx942 rows (ring LL base
// 12, hop 0.8 us; Simple 17, 3.6 us), link_efficiency 0.75, one_shot 5.4 us x 0.85, two_shot
// 11 us x 0.72 (of nominal), LL128 off.
TEST_CASE("collectives: MI355X mesh all-reduce hand-computed on the xgmi defaults", "[collectives]") {
  const MachineSpec m = machine("mi355x.yaml");
  const LinkCost l = one_level(m, 0, 8);
  const double A = 537.6e9, nccl = A * 0.75;
  for (const double M : {16 * KiB, 1 * MiB, 256 * MiB}) {
    INFO("M = " << M);
    const Cands cs = candidates(coll(CommKind::all_reduce, 8, M, l), m);
    CHECK(cs.n == 6);
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::ll), (12 + 14 * 0.8) * us + 1.75 * M / (nccl / 4)));
    CHECK(rel(cs.of(CollAlgorithm::nccl_ring, Protocol::simple), (17 + 14 * 3.6) * us + 1.75 * M / nccl));
    CHECK(rel(cs.of(CollAlgorithm::one_shot), 5.4 * us + 7 * M / (A * 0.85)));
    CHECK(rel(cs.of(CollAlgorithm::two_shot), 11 * us + 1.75 * M / (A * 0.72)));
  }
  // 16 KiB: one_shot 5.4 + 114688 / 456.96e9 = 5.651 us.
  const CollectiveChoice s = collective_cost(coll(CommKind::all_reduce, 8, 16 * KiB, l), m);
  CHECK(s.algorithm == CollAlgorithm::one_shot);
  CHECK(s.seconds == Approx(5.4e-6 + 7 * 16384 / (A * 0.85)));
}

// ---- newer machines: TPU v6e pod against Google's published pod figures (machines/tpu-v6e.yaml)
// docs.cloud.google.com/tpu/docs/v6e: 256 chips, 2D torus, 800 GBps bidirectional ICI per chip
// over 4 ports; "All-reduce bandwidth per Pod 102.4 TB/s", "Bisection bandwidth per Pod 3.2 TB/s".
// The level's closed forms: whole-pod ring bandwidth 400 GB/s per chip x 256 chips = 102.4 TB/s;
// bisection 2 x 256 / 16 = 32 links of b = 400 / 4 = 100 GB/s = 3.2 TB/s; a pass of the
// dimension-by-dimension all-reduce takes 15 + 15 = 30 steps (not 255).
TEST_CASE("collectives: TPU v6e pod bandwidths equal Google's published pod figures", "[collectives]") {
  const MachineSpec m = machine("tpu-v6e.yaml");
  const LevelSpec& pod = m.levels[0];
  REQUIRE(pod.topology == LinkTopology::torus);
  const LevelPaths p = level_paths(pod, 256, 1);
  CHECK(p.ring_bw * 256 == Approx(102.4e12));
  CHECK(p.ring_steps == 30);
  CHECK(level_bisection_links(pod) == 32);
  CHECK(level_bisection_links(pod) * pod.link_bw / 4 == Approx(3.2e12));
  // The whole-pod all-reduce of 256 MiB: ring Simple 8.4 + 60 x 3.4 us + 2 (255/256) M / (400e9 x 0.8).
  const LinkCost l = one_level(m, 0, 256);
  CHECK(rel(candidates(coll(CommKind::all_reduce, 256, 256 * MiB, l), m)
                .of(CollAlgorithm::nccl_ring, Protocol::simple),
            (8.4 + 60 * 3.4) * us + 2.0 * 255 / 256 * 256 * MiB / (400e9 * 0.8)));
}

}  // namespace
}  // namespace tessera
