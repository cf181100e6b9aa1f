// The per-topology closed forms (framework/src/physics/level_topology.cpp) against the explicit
// Boost.Graph model (topology_graph.cpp, docs/physics.md §6) for every shipped machine file and
// every level: hop counts by breadth-first search, the group diameter and first-hop distance
// of every power-of-two group shape, links and bandwidth per PE, the bisection (a cut count
// and Boost's max-flow min cut; all balanced bisections by brute force where the unit has at
// most 16 members), and the whole unit's ring and all-to-all bandwidth from the graph's
// edges and min cut. Plus small synthetic tori and rings brute-forced the same way.
#include <catch2/catch.hpp>
#include "tessera_build_paths.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "scenario/scenario_loader.hpp"
#include "tessera/physics/level_topology.hpp"
#include "topology_graph.hpp"

using namespace tessera;

namespace {

// Extents of a ring / torus level (the dims, else one ring of fanout).
std::vector<std::int64_t> extents(const LevelSpec& lv) {
  std::vector<std::int64_t> d;
  std::int64_t prod = 1;
  for (int i = 0; lv.topology == LinkTopology::torus && i < lv.dim_count; ++i) {
    d.push_back(lv.dims[static_cast<std::size_t>(i)]);
    prod *= d.back();
  }
  if (d.empty() || prod != lv.fanout) d = {lv.fanout};
  return d;
}

// Coordinate of member i in dimension j.
std::int64_t coordinate(const std::vector<std::int64_t>& ext, std::int64_t i, std::size_t j) {
  for (std::size_t k = 0; k < j; ++k) i /= ext[k];
  return i % ext[j];
}

std::size_t largest_dim(const std::vector<std::int64_t>& ext) {
  return static_cast<std::size_t>(std::max_element(ext.begin(), ext.end()) - ext.begin());
}

bool direct(const LevelSpec& lv) { return lv.topology != LinkTopology::switched; }

// Smallest crossing count over all balanced bisections (member 0 fixed on side 0).
std::int64_t brute_force_bisection(const TopologyGraph& g, int level, std::int64_t n) {
  std::int64_t best = -1;
  for (std::uint32_t mask = 0; mask < (1u << n); ++mask) {
    if ((mask & 1u) || __builtin_popcount(mask) != static_cast<int>(n / 2)) continue;
    std::vector<bool> side(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) side[static_cast<std::size_t>(i)] = (mask >> i) & 1u;
    const std::int64_t c = g.crossing_links(level, 0, side);
    if (best < 0 || c < best) best = c;
  }
  return best;
}

// Checks one unit of one level; returns the number of mismatches (and reports the first few).
int check_unit(const MachineSpec& mc, const TopologyGraph& g, int level, std::int64_t unit) {
  const LevelSpec& lv = mc.levels[static_cast<std::size_t>(level - 1)];
  const std::int64_t n = lv.fanout;
  INFO(mc.name << " level " << lv.name << " (" << topology_name(lv.topology) << ", fanout " << n << ") unit "
               << unit);
  int bad = 0;
  const auto expect = [&](bool ok, const std::string& what) {
    if (!ok && ++bad <= 5) {
      INFO(what);
      CHECK(ok);
    }
  };
  if (n < 2) return 0;
  // Hops: all pairs up to 256 members, else 16 deterministic sources.
  const bool all_pairs = n <= 256;
  std::vector<std::vector<std::int64_t>> hops(static_cast<std::size_t>(n));
  for (std::int64_t k = 0; k < (all_pairs ? n : 16); ++k) {
    const std::int64_t a = all_pairs ? k : (k * 7919) % n;
    hops[static_cast<std::size_t>(a)] = g.hops_from(level, unit, a);
    for (std::int64_t b = 0; b < n; ++b)
      expect(hops[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] == level_hops(lv, a, b),
             "hops " + std::to_string(a) + " -> " + std::to_string(b) + ": graph " +
                 std::to_string(hops[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)]) +
                 ", closed form " + std::to_string(level_hops(lv, a, b)));
  }
  // Every power-of-two group shape: the diameter among its members and the first hop.
  for (std::int64_t gs = 2; gs <= n && all_pairs; gs *= 2) {
    for (std::int64_t s = 1; gs * s <= n; s *= 2) {
      std::int64_t diameter = 0;
      for (std::int64_t i = 0; i < gs; ++i)
        for (std::int64_t j = 0; j < gs; ++j)
          diameter =
              std::max(diameter, hops[static_cast<std::size_t>(i * s)][static_cast<std::size_t>(j * s)]);
      const LevelPaths p = level_paths(lv, gs, s);
      const std::string shape = "g " + std::to_string(gs) + " s " + std::to_string(s);
      expect(p.max_hops == static_cast<double>(diameter), shape + ": diameter graph " +
                                                              std::to_string(diameter) + ", closed form " +
                                                              std::to_string(p.max_hops));
      expect(p.p2p_hops == static_cast<double>(hops[0][static_cast<std::size_t>(s)]), shape + ": first hop");
    }
  }
  // Links and bandwidth per member (switch: its one port).
  const LevelPaths whole = level_paths(lv, n, 1);
  for (std::int64_t i : {std::int64_t{0}, n - 1}) {
    expect(static_cast<double>(g.member_degree(level, unit, i)) == whole.links, "links per member");
    expect(std::abs(g.member_bandwidth(level, unit, i) - lv.link_bw) <= 1e-9 * lv.link_bw,
           "bandwidth per member");
  }
  // Bisection: the closed form's halves (i < n/2; across the largest extent on ring / torus).
  const std::int64_t closed = level_bisection_links(lv);
  std::vector<bool> side(static_cast<std::size_t>(n));
  std::vector<std::int64_t> a, b;
  if (lv.topology == LinkTopology::ring || lv.topology == LinkTopology::torus) {
    const std::vector<std::int64_t> ext = extents(lv);
    const std::size_t j = largest_dim(ext);
    const std::int64_t half = ext[j] / 2;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t c = coordinate(ext, i, j);
      side[static_cast<std::size_t>(i)] = c >= half;
      // Max-flow seeds: the planes at coordinates 0 and D/2 (the halves themselves when D = 2).
      if (c == 0) a.push_back(i);
      if (c == half) b.push_back(i);
    }
  } else {
    for (std::int64_t i = 0; i < n; ++i) {
      side[static_cast<std::size_t>(i)] = i >= n / 2;
      (i < n / 2 ? a : b).push_back(i);
    }
  }
  if (direct(lv))
    expect(g.crossing_links(level, unit, side) == closed,
           "bisection crossing " + std::to_string(g.crossing_links(level, unit, side)) + ", closed form " +
               std::to_string(closed));
  const std::int64_t flow = g.min_cut_links(level, unit, a, b);
  expect(flow == closed, "min cut " + std::to_string(flow) + ", closed form " + std::to_string(closed));
  if (direct(lv) && n <= 16 && unit == 0)
    expect(brute_force_bisection(g, level, n) == closed, "brute-force bisection");
  // The whole unit: a ring collective reaches the PE's injection (the sum of its edges'
  // bandwidths), and all-to-all is bound by the graph's min cut: floor(n/2) ceil(n/2) M/n
  // crosses `flow` links of the per-edge bandwidth, t = that / (flow * b_edge), so
  // a2a_bw = (n-1)/n M / t = (n-1) flow b_edge / (floor(n/2) ceil(n/2)), capped by the ring.
  const double b_edge =
      g.member_bandwidth(level, unit, 0) / static_cast<double>(g.member_degree(level, unit, 0));
  const double half = static_cast<double>(n / 2) * static_cast<double>((n + 1) / 2);
  const double a2a = std::min(whole.ring_bw, static_cast<double>((n - 1) * flow) * b_edge / half);
  expect(std::abs(whole.ring_bw - g.member_bandwidth(level, unit, 0)) <= 1e-9 * lv.link_bw,
         "whole-unit ring bw");
  expect(std::abs(whole.a2a_bw - a2a) <= 1e-9 * lv.link_bw,
         "whole-unit all-to-all " + std::to_string(whole.a2a_bw) + " vs graph bound " + std::to_string(a2a));
  return bad;
}

}  // namespace

TEST_CASE("topology graph: every shipped machine's levels match the closed forms", "[physics][topology]") {
  std::vector<std::filesystem::path> files;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(TESSERA_SOURCE_DIR) / "machines"))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 11);
  std::set<LinkTopology> seen;
  int levels = 0;
  for (const auto& f : files) {
    const MachineSpec mc = load_machine_file(f.string());
    INFO(f.filename().string());
    const TopologyGraph g(mc);
    for (int l = 1; l <= static_cast<int>(mc.levels.size()); ++l) {
      seen.insert(mc.levels[static_cast<std::size_t>(l - 1)].topology);
      ++levels;
      const std::int64_t units = g.unit_count(l);
      CHECK(check_unit(mc, g, l, 0) == 0);
      if (units > 1) CHECK(check_unit(mc, g, l, units - 1) == 0);
    }
  }
  CHECK(levels >= 22);
  CHECK(seen.size() == 4);  // switch, all-to-all, ring and torus are all exercised
}

TEST_CASE("topology graph: small tori and rings brute-forced", "[physics][topology]") {
  struct Case {
    LinkTopology t;
    std::int64_t fanout;
    std::vector<int> dims;
  };
  const std::vector<Case> cases{{LinkTopology::torus, 16, {4, 4}}, {LinkTopology::torus, 8, {2, 4}},
                                {LinkTopology::torus, 8, {4, 2}},  {LinkTopology::torus, 8, {2, 2, 2}},
                                {LinkTopology::torus, 16, {2, 8}}, {LinkTopology::ring, 5, {}},
                                {LinkTopology::ring, 6, {}},       {LinkTopology::ring, 2, {}},
                                {LinkTopology::torus, 12, {3, 4}}, {LinkTopology::all_to_all, 5, {}},
                                {LinkTopology::switched, 6, {}}};
  for (const Case& c : cases) {
    MachineSpec mc;
    mc.name = "synthetic";
    LevelSpec lv("unit", c.fanout, 120e9, 1e-6, c.t);
    for (int d : c.dims) lv.dims[static_cast<std::size_t>(lv.dim_count++)] = d;
    mc.levels.push_back(lv);
    // Two units, under a switch, so that the second unit is not the graph's first vertices.
    mc.levels.push_back(LevelSpec("top", 2, 10e9, 1e-6));
    const TopologyGraph g(mc);
    CHECK(check_unit(mc, g, 1, 0) == 0);
    CHECK(check_unit(mc, g, 1, 1) == 0);
    CHECK(g.highest_level_between(0, c.fanout - 1) == 1);
    CHECK(g.highest_level_between(0, c.fanout) == 2);
  }
}
