#pragma once
// The machine hierarchy as a Boost.Graph: one vertex per PE, and the links of every level
// inside each of its units as edges carrying the level and the per-link bandwidth:
//   switch      a switch vertex per unit, one edge (the PE's port, link_bw) to each unit below;
//   all-to-all  the units below joined directly, every pair (link_bw / (fanout - 1));
//   ring        a cycle through the units below (link_bw / 2; one edge of link_bw when fanout 2);
//   torus       wrap-around per dimension (one edge per neighbour pair; extent 2: one edge),
//               link_bw / (links per PE); without valid dims a ring of fanout.
// A unit of a switch level is reached from above through its switch vertex; a unit of a
// direct (mesh, ring, torus) level through its first member's representative (recursively a
// PE). Used to check the group-to-link mapping (layout.cpp) and the per-topology closed forms
// (level_topology.cpp) against explicit paths and cuts in tests, and to report the topology.
// Built once per machine, never per configuration.
#include <cstdint>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct TopologyEdge {
  int level = 0;         // 1-based index into MachineSpec::levels whose links this edge carries
  double bandwidth = 0;  // B/s per direction of this one link
  double latency = 0;
};

class TESSERA_API TopologyGraph {
 public:
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, TopologyEdge>;
  using Vertex = Graph::vertex_descriptor;

  // Throws InputError when the machine has more than `max_pes` PEs (the graph is explicit).
  explicit TopologyGraph(const MachineSpec& machine, std::int64_t max_pes = 1 << 20);

  std::int64_t pe_count() const { return pes_; }
  std::size_t vertex_count() const { return boost::num_vertices(graph_); }
  std::size_t edge_count() const { return boost::num_edges(graph_); }
  const Graph& graph() const { return graph_; }

  // The highest level whose links the path between two PEs crosses (0 when a == b), found
  // by a breadth-first search on the graph.
  int highest_level_between(std::int64_t a, std::int64_t b) const;
  // The highest level crossed among all pairs of `members` (the group's collective level).
  int highest_level_of_group(const std::vector<std::int64_t>& members) const;
  // The highest level on the breadth-first tree paths from `a` to each of `targets` (one search).
  int highest_level_from(std::int64_t a, const std::vector<std::int64_t>& targets) const;

  // Units of 1-based `level` in the machine, and the vertex that stands for member `i`
  // (0 <= i < fanout: a unit of the level below, or a PE) of unit `unit` of that level.
  std::int64_t unit_count(int level) const;
  Vertex member_vertex(int level, std::int64_t unit, std::int64_t i) const;

  // Link hops from member `a` of one unit of `level` to each of its members, by a
  // breadth-first search over that level's edges only (a pass through a switch vertex, port
  // in and port out, counts as one hop); -1 where unreachable.
  std::vector<std::int64_t> hops_from(int level, std::int64_t unit, std::int64_t a) const;
  // Edges of `level` inside `unit` between members on different sides (side[i] for member i).
  // Direct topologies only: a switch's cut depends on the side of its switch vertex (use
  // min_cut_links).
  std::int64_t crossing_links(int level, std::int64_t unit, const std::vector<bool>& side) const;
  // Fewest edges of `level` inside `unit` whose removal separates every member in `sources`
  // from every member in `sinks`: Boost's max flow (Edmonds-Karp) with one unit of capacity
  // per link, on the unit's own vertices (and switch vertex).
  std::int64_t min_cut_links(int level, std::int64_t unit, const std::vector<std::int64_t>& sources,
                             const std::vector<std::int64_t>& sinks) const;
  // Edges of `level` at member `i` of `unit` and the sum of their bandwidths.
  std::int64_t member_degree(int level, std::int64_t unit, std::int64_t i) const;
  double member_bandwidth(int level, std::int64_t unit, std::int64_t i) const;

 private:
  Graph graph_;
  std::int64_t pes_ = 0;
  std::vector<std::int64_t> fanout_;           // per level (index level - 1)
  std::vector<std::vector<Vertex>> members_;   // per level: the units below, unit-major
  std::vector<std::vector<Vertex>> switches_;  // per level: the unit's switch vertex (switch levels)
  std::vector<LinkTopology> topology_;
};

}  // namespace tessera
