#include "physics/topology_graph.hpp"

#include <algorithm>
#include <string>

#include <boost/graph/breadth_first_search.hpp>

#include "tessera/error.hpp"

namespace tessera {

TopologyGraph::TopologyGraph(const MachineSpec& machine, std::int64_t max_pes) {
  pes_ = machine.total_pes();
  if (pes_ > max_pes)
    throw InputError("machine " + machine.name + " has " + std::to_string(pes_) +
                     " PEs; the explicit topology graph is limited to " + std::to_string(max_pes));
  graph_ = Graph(static_cast<std::size_t>(pes_));
  // Vertices of the level below (initially the PEs), grouped `fanout` at a time under a
  // new switch vertex of this level.
  std::vector<std::size_t> below(static_cast<std::size_t>(pes_));
  for (std::size_t i = 0; i < below.size(); ++i) below[i] = i;
  for (std::size_t l = 0; l < machine.levels.size(); ++l) {
    const LevelSpec& lv = machine.levels[l];
    const std::size_t fanout = static_cast<std::size_t>(std::max<std::int64_t>(1, lv.fanout));
    std::vector<std::size_t> units;
    for (std::size_t i = 0; i < below.size(); i += fanout) {
      const std::size_t sw = boost::add_vertex(graph_);
      units.push_back(sw);
      for (std::size_t j = i; j < std::min(below.size(), i + fanout); ++j)
        boost::add_edge(below[j], sw, TopologyEdge{static_cast<int>(l) + 1, lv.link_bw, lv.latency}, graph_);
    }
    below = std::move(units);
  }
}

int TopologyGraph::highest_level_between(std::int64_t a, std::int64_t b) const {
  if (a == b) return 0;
  const std::size_t n = boost::num_vertices(graph_);
  std::vector<std::size_t> pred(n, n);
  pred[static_cast<std::size_t>(a)] = static_cast<std::size_t>(a);
  boost::breadth_first_search(
      graph_, static_cast<std::size_t>(a),
      boost::visitor(boost::make_bfs_visitor(boost::record_predecessors(
          boost::make_iterator_property_map(pred.begin(), boost::get(boost::vertex_index, graph_)),
          boost::on_tree_edge()))));
  int highest = 0;
  for (std::size_t v = static_cast<std::size_t>(b); v != static_cast<std::size_t>(a); v = pred[v]) {
    const auto [e, ok] = boost::edge(pred[v], v, graph_);
    if (ok) highest = std::max(highest, graph_[e].level);
  }
  return highest;
}

int TopologyGraph::highest_level_of_group(const std::vector<std::int64_t>& members) const {
  int highest = 0;
  for (std::size_t i = 1; i < members.size(); ++i)
    highest = std::max(highest, highest_level_between(members[0], members[i]));
  return highest;
}

}  // namespace tessera
