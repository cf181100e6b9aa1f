#include "topology_graph.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <string>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/edmonds_karp_max_flow.hpp>
#include <boost/graph/filtered_graph.hpp>

#include "tessera/error.hpp"

namespace tessera {
namespace {

// The extents a ring or torus level is wired with: its dims when they multiply to the
// fanout, else one ring of fanout (as level_topology.cpp prices it).
std::vector<std::int64_t> extents_of(const LevelSpec& lv, std::int64_t fanout) {
  if (lv.topology == LinkTopology::torus && lv.dim_count > 0 && lv.dim_count <= kMaxTorusDims) {
    std::vector<std::int64_t> d;
    std::int64_t prod = 1;
    for (int i = 0; i < lv.dim_count; ++i) {
      const std::int64_t e = lv.dims[static_cast<std::size_t>(i)];
      if (e < 1) return {fanout};
      d.push_back(e);
      prod *= e;
    }
    if (prod == fanout) return d;
  }
  return {fanout};
}

using Graph = TopologyGraph::Graph;
using Vertex = TopologyGraph::Vertex;

// The members of one unit of a direct level joined by that level's links.
void wire_direct(Graph& g, const LevelSpec& lv, int level, const Vertex* m, std::int64_t n) {
  if (n < 2) return;
  const auto edge = [&](std::int64_t a, std::int64_t b, double bw) {
    boost::add_edge(m[a], m[b], TopologyEdge{level, bw, lv.latency}, g);
  };
  if (lv.topology == LinkTopology::all_to_all) {
    const double bw = lv.link_bw / static_cast<double>(n - 1);
    for (std::int64_t a = 0; a < n; ++a)
      for (std::int64_t b = a + 1; b < n; ++b) edge(a, b, bw);
    return;
  }
  // Ring or torus: member index = mixed-radix coordinates, dimension 0 innermost. Each member
  // joins its +1 neighbour in every dimension, wrapping around when the extent exceeds 2.
  const std::vector<std::int64_t> ext = extents_of(lv, n);
  std::int64_t links = 0;
  for (std::int64_t e : ext) links += e > 2 ? 2 : (e == 2 ? 1 : 0);
  const double bw = lv.link_bw / static_cast<double>(std::max<std::int64_t>(1, links));
  std::int64_t step = 1;  // index distance of +1 in dimension j
  for (std::int64_t e : ext) {
    for (std::int64_t a = 0; a < n; ++a) {
      const std::int64_t c = (a / step) % e;
      if (e == 1 || (e == 2 && c == 1)) continue;
      const std::int64_t next = (c + 1) % e;
      edge(a, a + (next - c) * step, bw);
    }
    step *= e;
  }
}

// Edges of one level only.
struct LevelFilter {
  const Graph* g = nullptr;
  int level = 0;
  bool operator()(const Graph::edge_descriptor& e) const { return (*g)[e].level == level; }
};

}  // namespace

TopologyGraph::TopologyGraph(const MachineSpec& machine, std::int64_t max_pes) {
  pes_ = machine.total_pes();
  if (pes_ > max_pes)
    throw InputError("machine " + machine.name + " has " + std::to_string(pes_) +
                     " PEs; the explicit topology graph is limited to " + std::to_string(max_pes));
  graph_ = Graph(static_cast<std::size_t>(pes_));
  // Vertices standing for the units of the level below (initially the PEs), `fanout` at a
  // time in one unit of this level.
  std::vector<Vertex> below(static_cast<std::size_t>(pes_));
  for (std::size_t i = 0; i < below.size(); ++i) below[i] = i;
  for (std::size_t l = 0; l < machine.levels.size(); ++l) {
    const LevelSpec& lv = machine.levels[l];
    const int level = static_cast<int>(l) + 1;
    const std::size_t fanout = static_cast<std::size_t>(std::max<std::int64_t>(1, lv.fanout));
    fanout_.push_back(static_cast<std::int64_t>(fanout));
    topology_.push_back(lv.topology);
    switches_.emplace_back();
    std::vector<Vertex> units;
    for (std::size_t i = 0; i < below.size(); i += fanout) {
      const std::size_t n = std::min(below.size(), i + fanout) - i;
      if (lv.topology == LinkTopology::switched) {
        const Vertex sw = boost::add_vertex(graph_);
        units.push_back(sw);
        switches_.back().push_back(sw);
        for (std::size_t j = i; j < i + n; ++j)
          boost::add_edge(below[j], sw, TopologyEdge{level, lv.link_bw, lv.latency}, graph_);
      } else {
        units.push_back(below[i]);
        wire_direct(graph_, lv, level, below.data() + i, static_cast<std::int64_t>(n));
      }
    }
    members_.push_back(std::move(below));
    below = std::move(units);
  }
}

// Breadth-first search from `a` once; the highest level on the tree path to each of `targets`.
int TopologyGraph::highest_level_from(std::int64_t a, const std::vector<std::int64_t>& targets) const {
  const std::size_t n = boost::num_vertices(graph_);
  std::vector<std::size_t> pred(n, n);
  pred[static_cast<std::size_t>(a)] = static_cast<std::size_t>(a);
  boost::breadth_first_search(
      graph_, static_cast<std::size_t>(a),
      boost::visitor(boost::make_bfs_visitor(boost::record_predecessors(
          boost::make_iterator_property_map(pred.begin(), boost::get(boost::vertex_index, graph_)),
          boost::on_tree_edge()))));
  int highest = 0;
  for (const std::int64_t b : targets)
    for (std::size_t v = static_cast<std::size_t>(b); v != static_cast<std::size_t>(a); v = pred[v]) {
      const auto [e, ok] = boost::edge(pred[v], v, graph_);
      if (ok) highest = std::max(highest, graph_[e].level);
    }
  return highest;
}

int TopologyGraph::highest_level_between(std::int64_t a, std::int64_t b) const {
  if (a == b) return 0;
  return highest_level_from(a, {b});
}

int TopologyGraph::highest_level_of_group(const std::vector<std::int64_t>& members) const {
  if (members.size() < 2) return 0;
  return highest_level_from(members[0], {members.begin() + 1, members.end()});
}

std::int64_t TopologyGraph::unit_count(int level) const {
  const auto l = static_cast<std::size_t>(level - 1);
  return static_cast<std::int64_t>(members_.at(l).size()) / fanout_.at(l);
}

TopologyGraph::Vertex TopologyGraph::member_vertex(int level, std::int64_t unit, std::int64_t i) const {
  const auto l = static_cast<std::size_t>(level - 1);
  return members_.at(l).at(static_cast<std::size_t>(unit * fanout_.at(l) + i));
}

std::vector<std::int64_t> TopologyGraph::hops_from(int level, std::int64_t unit, std::int64_t a) const {
  const LevelFilter keep{&graph_, level};
  const boost::filtered_graph<Graph, LevelFilter> sub(graph_, keep);
  const std::size_t nv = boost::num_vertices(graph_);
  constexpr std::int64_t kUnreached = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> dist(nv, kUnreached);
  const Vertex src = member_vertex(level, unit, a);
  dist[src] = 0;
  boost::breadth_first_search(
      sub, src,
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(
          boost::make_iterator_property_map(dist.begin(), boost::get(boost::vertex_index, graph_)),
          boost::on_tree_edge()))));
  const bool through_switch = topology_.at(static_cast<std::size_t>(level - 1)) == LinkTopology::switched;
  const std::int64_t n = fanout_.at(static_cast<std::size_t>(level - 1));
  std::vector<std::int64_t> hops(static_cast<std::size_t>(n), -1);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t d = dist[member_vertex(level, unit, i)];
    if (d != kUnreached) hops[static_cast<std::size_t>(i)] = through_switch ? d / 2 : d;
  }
  return hops;
}

std::int64_t TopologyGraph::crossing_links(int level, std::int64_t unit,
                                           const std::vector<bool>& side) const {
  const std::int64_t n = fanout_.at(static_cast<std::size_t>(level - 1));
  std::vector<int> where(boost::num_vertices(graph_), -1);
  for (std::int64_t i = 0; i < n; ++i)
    where[member_vertex(level, unit, i)] = side.at(static_cast<std::size_t>(i)) ? 1 : 0;
  std::int64_t cut = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const Vertex v = member_vertex(level, unit, i);
    for (const auto& e : boost::make_iterator_range(boost::out_edges(v, graph_))) {
      const Vertex w = boost::target(e, graph_);
      if (graph_[e].level == level && where[w] >= 0 && where[w] != where[v] && v < w) ++cut;
    }
  }
  return cut;
}

std::int64_t TopologyGraph::min_cut_links(int level, std::int64_t unit,
                                          const std::vector<std::int64_t>& sources,
                                          const std::vector<std::int64_t>& sinks) const {
  using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
  using Flow = boost::adjacency_list<
      boost::vecS, boost::vecS, boost::directedS, boost::no_property,
      boost::property<boost::edge_capacity_t, long,
                      boost::property<boost::edge_residual_capacity_t, long,
                                      boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;
  const auto l = static_cast<std::size_t>(level - 1);
  const std::int64_t n = fanout_.at(l);
  // Local vertices: members 0..n-1, the switch vertex n (switch levels), source, sink.
  std::vector<std::int64_t> local(boost::num_vertices(graph_), -1);
  for (std::int64_t i = 0; i < n; ++i) local[member_vertex(level, unit, i)] = i;
  std::int64_t count = n;
  if (topology_.at(l) == LinkTopology::switched)
    local[switches_.at(l).at(static_cast<std::size_t>(unit))] = count++;
  const auto s = static_cast<std::size_t>(count), t = s + 1;
  Flow f(t + 1);
  auto cap = boost::get(boost::edge_capacity, f);
  auto rev = boost::get(boost::edge_reverse, f);
  const auto arc = [&](std::size_t u, std::size_t v, long c) {
    const auto e1 = boost::add_edge(u, v, f).first, e2 = boost::add_edge(v, u, f).first;
    cap[e1] = c;
    cap[e2] = 0;
    rev[e1] = e2;
    rev[e2] = e1;
  };
  long links = 0;
  for (const auto& e : boost::make_iterator_range(boost::edges(graph_))) {
    if (graph_[e].level != level) continue;
    const std::int64_t a = local[boost::source(e, graph_)], b = local[boost::target(e, graph_)];
    if (a < 0 || b < 0) continue;
    arc(static_cast<std::size_t>(a), static_cast<std::size_t>(b), 1);
    arc(static_cast<std::size_t>(b), static_cast<std::size_t>(a), 1);
    ++links;
  }
  for (std::int64_t i : sources) arc(s, static_cast<std::size_t>(i), links + 1);
  for (std::int64_t i : sinks) arc(static_cast<std::size_t>(i), t, links + 1);
  return boost::edmonds_karp_max_flow(f, s, t);
}

std::int64_t TopologyGraph::member_degree(int level, std::int64_t unit, std::int64_t i) const {
  std::int64_t d = 0;
  for (const auto& e : boost::make_iterator_range(boost::out_edges(member_vertex(level, unit, i), graph_)))
    if (graph_[e].level == level) ++d;
  return d;
}

double TopologyGraph::member_bandwidth(int level, std::int64_t unit, std::int64_t i) const {
  double bw = 0;
  for (const auto& e : boost::make_iterator_range(boost::out_edges(member_vertex(level, unit, i), graph_)))
    if (graph_[e].level == level) bw += graph_[e].bandwidth;
  return bw;
}

}  // namespace tessera
