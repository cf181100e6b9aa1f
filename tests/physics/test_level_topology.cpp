// The per-topology closed forms of framework/src/physics/level_topology.cpp (docs/physics.md
// §6): every expected value is computed by hand in the comment next to it. Bandwidths in GB/s
// (1e9 B/s) to keep the arithmetic readable.
#include <catch2/catch.hpp>

#include <cmath>
#include <initializer_list>

#include "tessera/physics/level_topology.hpp"

using namespace tessera;

namespace {

constexpr double kG = 1e9;

LevelSpec level(LinkTopology t, std::int64_t fanout, double link_gbs, std::initializer_list<int> dims = {}) {
  LevelSpec lv("l", fanout, link_gbs * kG, 1e-6, t);
  for (int d : dims) lv.dims[static_cast<std::size_t>(lv.dim_count++)] = d;
  return lv;
}

// Bandwidths compared in GB/s, relative 1e-12.
void check_paths(const LevelPaths& p, double p2p_bw, double p2p_hops, double ring_bw, double ring_hops,
                 double ring_steps, double a2a_bw, double max_hops, double links) {
  CHECK(p.p2p_bw / kG == Approx(p2p_bw).epsilon(1e-12));
  CHECK(p.p2p_hops == p2p_hops);
  CHECK(p.ring_bw / kG == Approx(ring_bw).epsilon(1e-12));
  CHECK(p.ring_hops == ring_hops);
  CHECK(p.ring_steps == ring_steps);
  CHECK(p.a2a_bw / kG == Approx(a2a_bw).epsilon(1e-12));
  CHECK(p.max_hops == max_hops);
  CHECK(p.links == links);
}

bool all_finite(const LevelPaths& p) {
  for (double v : {p.p2p_bw, p.p2p_hops, p.ring_bw, p.ring_hops, p.ring_steps, p.a2a_bw, p.max_hops, p.links})
    if (!std::isfinite(v) || v < 0) return false;
  return true;
}

}  // namespace

TEST_CASE("level topology: switch gives the full port to every pattern", "[physics][topology]") {
  // DGX-H100 node: 8 GPUs on NVSwitch, 450 GB/s per GPU per direction.
  const LevelSpec sw = level(LinkTopology::switched, 8, 450);
  // g = 8: everything at 450 GB/s, 1 hop, 7 ring steps, 1 port.
  check_paths(level_paths(sw, 8, 1), 450, 1, 450, 1, 7, 450, 1, 1);
  // Strided g = 4, s = 2: the switch does not care (3 steps).
  check_paths(level_paths(sw, 4, 2), 450, 1, 450, 1, 3, 450, 1, 1);
  CHECK(level_hops(sw, 0, 7) == 1);
  CHECK(level_hops(sw, 3, 3) == 0);
  CHECK(level_bisection_links(sw) == 4);  // the 8/2 ports of one half
}

TEST_CASE("level topology: MI300X-like full mesh", "[physics][topology]") {
  // 8 GPUs, 448 GB/s per GPU per direction over 7 links: b = 448/7 = 64 GB/s per peer.
  const LevelSpec mesh = level(LinkTopology::all_to_all, 8, 448);
  // g = 8: p2p one link 64; rings and all-to-all over the 7 links: 7*64 = 448; 7 links.
  check_paths(level_paths(mesh, 8, 1), 64, 1, 448, 1, 7, 448, 1, 7);
  // g = 4 (any stride): 3 links to the other members: 3*64 = 192 GB/s.
  check_paths(level_paths(mesh, 4, 1), 64, 1, 192, 1, 3, 192, 1, 7);
  check_paths(level_paths(mesh, 4, 2), 64, 1, 192, 1, 3, 192, 1, 7);
  // g = 2: one link, 64 GB/s for every pattern — 7x less than the 448 GB/s aggregate.
  check_paths(level_paths(mesh, 2, 4), 64, 1, 64, 1, 1, 64, 1, 7);
  CHECK(level_hops(mesh, 0, 5) == 1);
  CHECK(level_hops(mesh, 6, 6) == 0);
  CHECK(level_bisection_links(mesh) == 16);  // 4 * 4 pairs split by any 4 | 4 cut
  // A 2-GPU mesh: one link carries all 448 GB/s.
  check_paths(level_paths(level(LinkTopology::all_to_all, 2, 448), 2, 1), 448, 1, 448, 1, 1, 448, 1, 1);
}

TEST_CASE("level topology: ring of 8", "[physics][topology]") {
  // cube-sip's sip: 8 cubes on a ring, 200 GB/s per cube per direction: 2 links of b = 100.
  const LevelSpec ring = level(LinkTopology::ring, 8, 200);
  // Whole ring (g 8, s 1): p2p one link 100, 1 hop; bidirectional ring 2*100 = 200, 7 steps;
  // diameter 4; all-to-all: halves of 4 exchange 4*4*M/8 = 2M per direction over 2 links of
  // 100 = 200 GB/s: t = M/100 = (7/8) M / a2a -> a2a = 87.5 (< ring 200).
  check_paths(level_paths(ring, 8, 1), 100, 1, 200, 1, 7, 87.5, 4, 2);
  // Strided over the whole ring (g 4, s 2: 0 2 4 6; its twin 1 3 5 7 shares every link):
  // p2p 2 hops at 100/2 = 50; ring 2*100/2 = 100 with 2-hop steps, 3 steps; diameter 2*2 = 4;
  // all-to-all: {0,2} -> {4,6} carries 2*2*M/4 = M over 2 links of 100 shared by 2 groups:
  // t = M/100 = (3/4) M / a2a -> a2a = 75.
  check_paths(level_paths(ring, 4, 2), 50, 2, 100, 2, 3, 75, 4, 2);
  // A segment (g 4, s 1: 0 1 2 3, a line): bucket algorithm bound by an end's single link:
  // ring 100, steps 3, diameter 3; all-to-all: {0,1} -> {2,3} carries M over the one link
  // 1->2 of 100: t = M/100 = (3/4) M / a2a -> a2a = 75.
  check_paths(level_paths(ring, 4, 1), 100, 1, 100, 1, 3, 75, 3, 2);
  // g 2, s 4 (0 and 4): both ways are 4 hops; 4 senders (0..3) split over the two ways: each
  // link direction carries 2 messages: p2p 2*100/4 = 50; ring (spans: 2*4 = 8) 2*100/4 = 50,
  // 4-hop steps, 1 step; a2a: (1/2) M over 2 paths of 100/4: t = M/100 -> a2a = 50.
  check_paths(level_paths(ring, 2, 4), 50, 4, 50, 4, 1, 50, 4, 2);
  CHECK(level_hops(ring, 1, 7) == 2);  // 7 -> 0 -> 1
  CHECK(level_hops(ring, 0, 4) == 4);
  CHECK(level_hops(ring, 2, 5) == 3);
  CHECK(level_bisection_links(ring) == 2);
  // A ring of 2 has one link of the full 200 GB/s (as a torus dimension of extent 2).
  const LevelSpec pair = level(LinkTopology::ring, 2, 200);
  check_paths(level_paths(pair, 2, 1), 200, 1, 200, 1, 1, 200, 1, 1);
  CHECK(level_bisection_links(pair) == 1);
}

TEST_CASE("level topology: TPU v4 cube 4x4x4 torus", "[physics][topology]") {
  // 64 chips, 300 GB/s per chip per direction over 6 links: b = 50 GB/s.
  const LevelSpec cube = level(LinkTopology::torus, 64, 300, {4, 4, 4});
  // Whole torus: rings in all 3 dimensions, each 2*50 = 100: 300 GB/s; steps 3+3+3 = 9;
  // diameter 2+2+2 = 6. All-to-all: cut across x, halves of 32 send 32*32*M/64 = 16M over
  // 16 lines * 2 links * 50 = 1600 GB/s: t = M/100 = (63/64) M / a2a -> a2a = 98.4375.
  check_paths(level_paths(cube, 64, 1), 50, 1, 300, 1, 9, 98.4375, 6, 6);
  // TP = 8 (0..7: x full ring of 4, y a segment of 2): ring 2*50 + 1*50 = 150; steps 3+1 = 4;
  // diameter 2+1 = 3. All-to-all: cut across y (y0 | y1: 4 | 4) sends 4*4*M/8 = 2M over 4
  // links of 50 = 200: t = M/100 = (7/8) M / a2a -> 87.5; across x: 2M over 2 lines * 2
  // links * 50 = 200: the same 87.5.
  check_paths(level_paths(cube, 8, 1), 50, 1, 150, 1, 4, 87.5, 3, 6);
  // A z ring (g 4, s 16: members 0 16 32 48 = z 0..3): coordinates 1 apart in z: ring 100,
  // p2p 1 hop at 50, diameter 2; a2a: 2*2*M/4 = M over 2 links of 50: t = M/100 = (3/4)M/a2a
  // -> 75.
  check_paths(level_paths(cube, 4, 16), 50, 1, 100, 1, 3, 75, 2, 6);
  // x = 0 and 2 (g 2, s 2): 2 hops both ways; p2p 2*50/2 = 50; ring 2*50/2 = 50; a2a 50.
  check_paths(level_paths(cube, 2, 2), 50, 2, 50, 2, 1, 50, 2, 6);
  CHECK(level_hops(cube, 0, 63) == 3);       // (3,3,3): 1+1+1 by wrap-around
  CHECK(level_hops(cube, 0, 42) == 6);       // 42 = 2 + 2*4 + 2*16: (2,2,2)
  CHECK(level_hops(cube, 5, 21) == 1);       // 5 = (1,1,0), 21 = (1,1,1)
  CHECK(level_bisection_links(cube) == 32);  // 2 * 64/4
}

TEST_CASE("level topology: TPU v5e 16x16 torus", "[physics][topology]") {
  // 256 chips, 200 GB/s per chip per direction over 4 links: b = 50 GB/s.
  const LevelSpec pod = level(LinkTopology::torus, 256, 200, {16, 16});
  // Whole torus: ring 2*50 + 2*50 = 200; steps 15+15 = 30; diameter 8+8 = 16. All-to-all:
  // halves of 128 send 128*128*M/256 = 64M over 16 lines * 2 links * 50 = 1600 GB/s:
  // t = M/25 = (255/256) M / a2a -> a2a = 24.90234375.
  check_paths(level_paths(pod, 256, 1), 50, 1, 200, 1, 30, 24.90234375, 16, 4);
  // One x row (g 16, s 1): ring 100; 15 steps; diameter 8; a2a: 8*8*M/16 = 4M over 2 links of
  // 50 = 100: t = M/25 = (15/16) M / a2a -> 23.4375.
  check_paths(level_paths(pod, 16, 1), 50, 1, 100, 1, 15, 23.4375, 8, 4);
  // Strided in x (g 4, s 4: x = 0 4 8 12; 4 interleaved groups share the x links): p2p one
  // path of 4 hops at 50/4 = 12.5; ring 2*50/4 = 25 with 4-hop steps; diameter 4*2 = 8; a2a:
  // {0,4} -> {8,12} carries 2*2*M/4 = M over 2 links of 50/4: t = M/25 = (3/4) M / a2a -> 18.75.
  check_paths(level_paths(pod, 4, 4), 12.5, 4, 25, 4, 3, 18.75, 8, 4);
  CHECK(level_hops(pod, 0, 255) == 2);          // (15,15): 1+1
  CHECK(level_hops(pod, 0, 8 + 16 * 8) == 16);  // (8,8): 8+8
  CHECK(level_bisection_links(pod) == 32);      // 2 * 256/16
}

TEST_CASE("level topology: degenerate inputs give finite values and no division by zero",
          "[physics][topology]") {
  for (LinkTopology t :
       {LinkTopology::switched, LinkTopology::all_to_all, LinkTopology::ring, LinkTopology::torus}) {
    // g = 1: zeros.
    check_paths(level_paths(level(t, 8, 100), 1, 1), 0, 0, 0, 0, 0, 0, 0, 0);
    // fanout 1: no peers, zeros; bisection 0.
    check_paths(level_paths(level(t, 1, 100), 2, 1), 0, 0, 0, 0, 0, 0, 0, 0);
    CHECK(level_bisection_links(level(t, 1, 100)) == 0);
    CHECK(level_hops(level(t, 1, 100), 0, 0) == 0);
    // link_bw 0: zero bandwidths, finite.
    const LevelPaths z = level_paths(level(t, 8, 0), 8, 1);
    CHECK(all_finite(z));
    CHECK(z.ring_bw == 0);
    CHECK(z.a2a_bw == 0);
    // stride 0 is taken as 1.
    CHECK(level_paths(level(t, 8, 100), 8, 0).ring_bw == level_paths(level(t, 8, 100), 8, 1).ring_bw);
  }
  // A torus without dims (or with dims not multiplying to the fanout) is a ring of fanout.
  const LevelSpec ring8 = level(LinkTopology::ring, 8, 200);
  for (const LevelSpec& t :
       {level(LinkTopology::torus, 8, 200), level(LinkTopology::torus, 8, 200, {2, 2})}) {
    const LevelPaths a = level_paths(t, 8, 1), b = level_paths(ring8, 8, 1);
    CHECK(a.ring_bw == b.ring_bw);
    CHECK(a.a2a_bw == b.a2a_bw);
    CHECK(level_hops(t, 1, 7) == 2);
    CHECK(level_bisection_links(t) == 2);
  }
  // A group that does not tile the dimensions (3 members 2 apart on 4x4: x = 0, 2, then y = 1
  // at index 4): the line fallback. Steps: 0 -> 2 is 2 hops, 2 -> 4 = (0,1) is 2+1 = 3 hops:
  // ring 50/3 (b = 200/4 = 50); p2p 2 hops at 50/2 = 25; diameter: 0 -> 4 is 1, 2 -> 4 is 3:
  // 3; a2a:
  // (2/3) * 3 * 50 / (3 * 1*2) = 50/3 (= ring).
  const LevelSpec t44 = level(LinkTopology::torus, 16, 200, {4, 4});
  check_paths(level_paths(t44, 3, 2), 25, 2, 50.0 / 3, 3, 2, 50.0 / 3, 3, 4);
  // A hypercube 2x2x2: 1 link per dimension, b = 300/3 = 100; whole: ring 300, steps 3,
  // diameter 3; bisection 8/2 = 4 links; a2a: 4*4*M/8 = 2M over 4 links of 100: t = M/200 =
  // (7/8) M / a2a -> 175.
  const LevelSpec cube2 = level(LinkTopology::torus, 8, 300, {2, 2, 2});
  check_paths(level_paths(cube2, 8, 1), 100, 1, 300, 1, 3, 175, 3, 3);
  CHECK(level_bisection_links(cube2) == 4);
}

TEST_CASE("level topology: properties across topologies", "[physics][topology]") {
  // On one 8-PE unit with the same injection bandwidth, the switch is never slower than any
  // other topology for any pattern, and a full torus or ring collective reaches link_bw.
  const LevelSpec sw = level(LinkTopology::switched, 8, 400);
  for (const LevelSpec& lv :
       {level(LinkTopology::all_to_all, 8, 400), level(LinkTopology::ring, 8, 400),
        level(LinkTopology::torus, 8, 400, {2, 4}), level(LinkTopology::torus, 8, 400, {2, 2, 2})}) {
    for (std::int64_t g : {2, 4, 8}) {
      for (std::int64_t s = 1; g * s <= 8; s *= 2) {
        const LevelPaths p = level_paths(lv, g, s), q = level_paths(sw, g, s);
        INFO("topology " << topology_name(lv.topology) << " g " << g << " s " << s);
        CHECK(all_finite(p));
        CHECK(p.ring_bw <= q.ring_bw * (1 + 1e-12));
        CHECK(p.a2a_bw <= q.a2a_bw * (1 + 1e-12));
        CHECK(p.p2p_bw <= q.p2p_bw * (1 + 1e-12));
        CHECK(p.a2a_bw <= p.ring_bw * (1 + 1e-12));
        CHECK(p.max_hops >= p.p2p_hops);
        CHECK(p.p2p_hops == static_cast<double>(level_hops(lv, 0, s)));
      }
    }
    CHECK(level_paths(lv, 8, 1).ring_bw == Approx(400 * kG).epsilon(1e-12));
  }
}
