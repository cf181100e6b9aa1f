#pragma once
// The machine hierarchy as a Boost.Graph: one vertex per PE and one switch vertex per unit
// of every level; each edge joins a unit of one level to the unit (or PE) below and carries
// the level's link. Used to check the group-to-link mapping against explicit paths, and to
// report the topology. Built once per machine, never per configuration.
#include <cstdint>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"

namespace tessera {

struct TopologyEdge {
  int level = 0;  // 1-based index into MachineSpec::levels whose links this edge carries
  double bandwidth = 0;
  double latency = 0;
};

class TESSERA_API TopologyGraph {
 public:
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, boost::no_property, TopologyEdge>;

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

 private:
  Graph graph_;
  std::int64_t pes_ = 0;
};

}  // namespace tessera
