// Collective algorithms: docs/physics.md §5 "Communication". Every formula
// of a collective's time is here; the per-level constants come from the machine file's
// `collectives:` blocks (defaults: core/sdk/fabric_defaults.cpp) and the per-topology bandwidths
// and hop counts from level_topology.cpp.
#include "tessera/physics/collectives.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "physics/collective_memo.hpp"
#include "physics/moe_a2a_routing.hpp"
#include "tessera/physics/level_topology.hpp"

namespace tessera {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Multi-node terms of NCCL v2.30.7 src/graph/tuning.cc (docs/physics.md §5 "Across nodes"):
// - getNetOverhead(): the network post overhead of the proxy thread, 1 us per ring step on an
//   x86 Intel host (2 us AMD, 1 us otherwise), x3 for Simple; a ring that crosses nodes pays
//   max(intra-node hop, overhead) on every intra-node step ("Inter-node rings still have to
//   launch nsteps * net overhead").
// - NVLS tree (NVLink SHARP inside the node, a tree over the NICs across nodes; Simple only):
//   latency = hwLat[NVLINK][NVLS_TREE] 25 us + 2 log2i(nNodes) x hwLat[NET][NVLS_TREE] 20.9 us;
//   with 2 nodes the inter-node bandwidth counts twice ("Handle 2 node case of NVLSTree").
constexpr double kNetOverhead = 1e-6;
constexpr double kNvlsTreeIntra = 25e-6;
constexpr double kNvlsTreeInter = 20.9e-6;

// (bandwidth term multiplier, latency steps) of the ring on n ranks.
void ring_factors(CommKind kind, double n, double& bw_factor, double& steps) {
  switch (kind) {
    case CommKind::all_reduce:
      bw_factor = 2 * (n - 1) / n;
      steps = 2 * (n - 1);
      return;
    case CommKind::all_gather:
    case CommKind::reduce_scatter:
    case CommKind::all_to_all:
      bw_factor = (n - 1) / n;
      steps = n - 1;
      return;
    case CommKind::p2p:
      bw_factor = 1;
      steps = 1;
      return;
    case CommKind::none:
      break;
  }
  bw_factor = 0;
  steps = 0;
}

bool nothing_to_do(const Collective& c) {
  return c.kind == CommKind::none || (c.kind != CommKind::p2p && c.ranks <= 1);
}

bool ring_only(const LevelSpec& lv) {
  return lv.collectives.algorithms == (1u << static_cast<unsigned>(CollAlgorithm::ring));
}

// Custom all-reduce and direct copies load from / store to peers' memory: a scale-up fabric
// (NVLink, xGMI) whose topology reaches every member in one hop.
bool peer_memory_access(const LevelSpec& lv) {
  const Fabric f = lv.collectives.fabric;
  return (f == Fabric::nvlink || f == Fabric::xgmi) &&
         (lv.topology == LinkTopology::switched || lv.topology == LinkTopology::all_to_all);
}

// One level of a group as a phase runs on it.
struct LevelView {
  const LevelSpec* lv = nullptr;
  double g = 1;          // members at this level
  LevelPaths paths;      // per-topology bandwidths and hops (nominal)
  double eff = 1;        // NCCL's achievable link fraction x the model's bandwidth efficiency
  double raw = 1;        // the model's bandwidth efficiency alone (own bw_factor, of nominal)
  double cap = kInf;     // uplink share per PE
  double legacy_bw = 0;  // min(link_bw, cap) x bw_efficiency: the legacy ring's beta
  // NCCL's algorithms (ring, tree, NVLS, send/recv) run at link_efficiency of nominal;
  // custom all-reduce and direct copies state their own fraction of nominal (bw_factor).
  double ring_bw() const { return std::min(paths.ring_bw, cap) * eff; }
  double p2p_bw() const { return std::min(paths.p2p_bw, cap) * eff; }
  double port_bw() const { return std::min(lv->link_bw, cap) * eff; }
  double a2a_bw() const { return std::min(paths.a2a_bw, cap) * raw; }
};

// `concurrent`: how many of the group's members cross this level at once per unit below
// (1 for a flat ring or tree, the inner members for a hierarchical phase).
LevelView view(const MachineSpec& m, const LinkCost& link, int d, const CommRates& r, double concurrent) {
  LevelView v;
  const auto i = static_cast<std::size_t>(d);
  v.lv = &m.levels[i];
  v.g = std::max<std::int32_t>(1, link.members[i]);
  v.paths = level_paths(*v.lv, static_cast<std::int64_t>(v.g), std::max<std::int32_t>(1, link.stride[i]));
  v.eff = v.lv->collectives.link_efficiency * r.bw_efficiency;
  v.raw = r.bw_efficiency;
  if (v.lv->uplink_bw > 0)
    v.cap = v.lv->uplink_bw / (std::max<std::int32_t>(1, link.share[i]) * std::max(1.0, concurrent));
  v.legacy_bw = std::min(v.lv->link_bw, v.cap) * r.bw_efficiency;
  return v;
}

double divide(double bytes, double bw) { return bytes <= 0 ? 0 : (bw > 0 ? bytes / bw : kInf); }

// Keeps the fastest candidate and, for explain, lists them all.
struct Sink {
  CollectiveChoice* out = nullptr;
  int cap = 0;
  int n = 0;
  CollectiveChoice best;

  void add(double s, CollAlgorithm a, Protocol p, CommShape shape) {
    if (!(s < kInf)) return;
    const CollectiveChoice c{s, a, p, shape, true};
    if (out && n < cap) out[n] = c;
    ++n;
    if (!best.any || s < best.seconds) best = c;
  }
};

const AlgorithmCost& proto_cost(const std::array<AlgorithmCost, kProtocolCount>& a, int p) {
  return a[static_cast<std::size_t>(p)];
}

// Tree depth on one level: NCCL chains the ranks inside a node and builds binary trees
// across nodes (tuning.cc: 2 * ((nRanks/nNodes - 1) * intraLat + log2i(nNodes) * interLat)):
// log2i is floor(log2), the height of a binary tree of nNodes nodes (3 nodes: 1 level).
double tree_depth(const LevelView& v) {
  return fabric_is_network(v.lv->collectives.fabric) ? std::floor(std::log2(v.g)) : v.g - 1;
}

// One message of M bytes along one path of the level's topology: alpha per hop.
double message_time(const LevelView& v, double M, const CommRates& r) {
  return v.lv->latency * std::max(1.0, v.paths.p2p_hops) + r.extra_latency + divide(M, v.p2p_bw());
}

// Single-level candidates of `kind` on M bytes among v.g members.
void level_candidates(CommKind kind, double M, const LevelView& v, const CommRates& r, CommShape shape,
                      Sink& sink) {
  const LevelCollectives& lc = v.lv->collectives;
  const double g = v.g;
  if (g <= 1 && kind != CommKind::p2p) return;
  if (lc.allows(CollAlgorithm::ring)) {
    double f = 0, steps = 0;
    ring_factors(kind, g, f, steps);
    sink.add(divide(f * M, v.legacy_bw) + steps * (v.lv->latency + r.extra_latency), CollAlgorithm::ring,
             Protocol::none, shape);
    if (kind == CommKind::p2p) return;  // the legacy message: alpha + M / link_bw
  }
  if (kind == CommKind::p2p) {
    sink.add(message_time(v, M, r), CollAlgorithm::direct, Protocol::none, shape);
    return;
  }
  const bool reduce = kind == CommKind::all_reduce;
  const bool ring_kind = reduce || kind == CommKind::all_gather || kind == CommKind::reduce_scatter;
  if (ring_kind && lc.allows(CollAlgorithm::nccl_ring)) {
    double f = 0, steps = 0;
    ring_factors(kind, g, f, steps);
    // TPU-style collectives on an ICI torus (and Neuron's on a NeuronLink torus) run their
    // rings dimension by dimension: fewer sequential steps than g - 1. NCCL's rings (every other
    // fabric) step through all g ranks, so a torus never beats a switch of the same injection
    // bandwidth there.
    if (v.paths.ring_steps > 0 && fabric_torus_rings(v.lv->collectives.fabric))
      steps = (reduce ? 2 : 1) * v.paths.ring_steps;
    for (int p = 0; p < kProtocolCount; ++p) {
      const AlgorithmCost& a = proto_cost(lc.ring, p);
      sink.add(a.base + steps * (a.hop * std::max(1.0, v.paths.ring_hops) + r.extra_latency) +
                   divide(f * M, v.ring_bw() * a.bw_factor),
               CollAlgorithm::nccl_ring, static_cast<Protocol>(p), shape);
    }
  }
  if (reduce && lc.allows(CollAlgorithm::nccl_tree)) {
    const double depth = tree_depth(v);
    for (int p = 0; p < kProtocolCount; ++p) {
      const AlgorithmCost& a = proto_cost(lc.tree, p);
      sink.add(a.base + 2 * depth * (a.hop + r.extra_latency) + divide(M, 0.5 * v.ring_bw() * a.bw_factor),
               CollAlgorithm::nccl_tree, static_cast<Protocol>(p), shape);
    }
  }
  if (reduce && peer_memory_access(*v.lv)) {
    if (lc.allows(CollAlgorithm::one_shot)) {
      const AlgorithmCost& a = lc.one_shot;
      sink.add(a.base + r.extra_latency + divide((g - 1) * M, v.a2a_bw() * a.bw_factor),
               CollAlgorithm::one_shot, Protocol::none, shape);
    }
    if (lc.allows(CollAlgorithm::two_shot)) {
      const AlgorithmCost& a = lc.two_shot;
      sink.add(a.base + 2 * (a.hop + r.extra_latency) + divide(2 * (g - 1) / g * M, v.a2a_bw() * a.bw_factor),
               CollAlgorithm::two_shot, Protocol::none, shape);
    }
  }
  if (reduce && lc.in_network && lc.allows(CollAlgorithm::in_network) &&
      v.lv->topology == LinkTopology::switched) {
    const AlgorithmCost& a = lc.in_network_cost;
    sink.add(a.base + a.hop + r.extra_latency + divide(M, v.port_bw() * a.bw_factor),
             CollAlgorithm::in_network, Protocol::none, shape);
  }
  if (kind == CommKind::all_to_all && lc.allows(CollAlgorithm::direct)) {
    const AlgorithmCost& a = lc.direct;
    sink.add(a.base + (g - 1) * a.hop + r.extra_latency + divide((g - 1) / g * M, v.a2a_bw() * a.bw_factor),
             CollAlgorithm::direct, Protocol::none, shape);
  }
  // A reduce-scatter or all-gather by peer loads/stores is one pass of the two-shot kernel:
  // half its base, its bandwidth factor, (g-1)/g M per rank.
  if ((kind == CommKind::all_gather || kind == CommKind::reduce_scatter) && peer_memory_access(*v.lv) &&
      lc.allows(CollAlgorithm::direct)) {
    const AlgorithmCost& a = lc.two_shot;
    sink.add(a.base / 2 + a.hop + r.extra_latency + divide((g - 1) / g * M, v.a2a_bw() * a.bw_factor),
             CollAlgorithm::direct, Protocol::none, shape);
  }
}

// The digits the group spans (members > 1), innermost first; returns their count.
int spanned_digits(const MachineSpec& m, const LinkCost& link, std::array<int, kMaxLevels>& out) {
  int k = 0;
  const int levels = std::min<int>(static_cast<int>(m.levels.size()), kMaxLevels);
  for (int d = 0; d < levels && d < link.level; ++d)
    if (link.members[static_cast<std::size_t>(d)] > 1) out[static_cast<std::size_t>(k++)] = d;
  return k;
}

double best_of(CommKind kind, double M, const LevelView& v, const CommRates& r) {
  Sink s;
  level_candidates(kind, M, v, r, CommShape::flat, s);
  return s.best.any ? s.best.seconds : kInf;
}

// Ring edges of the group whose endpoints differ in digit >= digits[i] (mixed-radix order,
// inner digit fastest): the product of the members from that digit up.
double edges_from(const LinkCost& link, const std::array<int, kMaxLevels>& digits, int k, int i) {
  double p = 1;
  for (int j = i; j < k; ++j)
    p *= link.members[static_cast<std::size_t>(digits[static_cast<std::size_t>(j)])];
  return p;
}

// The view of digits[i] with `inner` members of the group crossing it at once per unit below.
LevelView crossing(const LevelView& flat, const LinkCost& link, int d, double inner) {
  LevelView v = flat;
  if (v.lv->uplink_bw > 0) {
    v.cap = v.lv->uplink_bw / (std::max<std::int32_t>(1, link.share[static_cast<std::size_t>(d)]) * inner);
    v.legacy_bw = std::min(v.lv->link_bw, v.cap) * v.raw;
  }
  return v;
}

// Whether any spanned level is a network (NICs): NCCL's multi-node rules apply. `roce` (Gaudi's
// HCCL) is not: HCCL implements most collectives hierarchically, scale-up and scale-out pipelined
// (Intel Gaudi docs, "Intel Gaudi Network Configuration"), so the hierarchical shape competes.
bool spans_network(const std::array<LevelView, kMaxLevels>& v, int k) {
  for (int i = 0; i < k; ++i)
    if (v[static_cast<std::size_t>(i)].lv->collectives.fabric == Fabric::network) return true;
  return false;
}

// The bandwidth a flat ring or tree gets on level digits[i]. A network level: NCCL runs one
// channel per NIC pair and spreads its rings and trees over the NICs of the `inner` members of
// the group inside a node (each member's own NIC), so the level carries inner x the per-PE
// rate, capped by the unit's uplink shared by `share` groups (2 nodes x 8 H100 with 8 NICs:
// 8 x 50 GB/s; docs/physics.md §5 "Across nodes"). Other levels: the per-PE ring rate.
double channel_bw(const LinkCost& link, const std::array<int, kMaxLevels>& digits,
                  const std::array<LevelView, kMaxLevels>& v, int i) {
  const LevelView& lv = v[static_cast<std::size_t>(i)];
  if (!fabric_is_network(lv.lv->collectives.fabric) || i == 0) return lv.ring_bw();
  double inner = 1;
  for (int j = 0; j < i; ++j) inner *= v[static_cast<std::size_t>(j)].g;
  double bw = lv.paths.ring_bw * inner;
  if (lv.lv->uplink_bw > 0)
    bw = std::min(bw, lv.lv->uplink_bw /
                          std::max<std::int32_t>(
                              1, link.share[static_cast<std::size_t>(digits[static_cast<std::size_t>(i)])]));
  return bw * lv.eff;
}

// NCCL's NVLS tree: an all-reduce whose inner levels all reduce in the switch (NVLS) and whose
// top level is a network: NVLS inside the node, a tree over the NICs across nodes (kNvlsTree*).
// Bandwidth: the node's NVLS rate, or the ppn NICs of a node carrying the group's 1/ppn shares
// (x2 with 2 nodes: each node sends its half once and receives the other's, tuning.cc's 2-node
// case; with more nodes up and down the tree).
void nvls_tree(const Collective& c, const CommRates& r, const std::array<int, kMaxLevels>& digits,
               const std::array<LevelView, kMaxLevels>& v, int k, Sink& sink) {
  const LevelView& top = v[static_cast<std::size_t>(k - 1)];
  if (top.lv->collectives.fabric != Fabric::network || !top.lv->collectives.allows(CollAlgorithm::in_network))
    return;
  double ppn = 1, nvls_bw = kInf;
  for (int i = 0; i + 1 < k; ++i) {
    const LevelView& lv = v[static_cast<std::size_t>(i)];
    const LevelCollectives& lc = lv.lv->collectives;
    if (!lc.in_network || !lc.allows(CollAlgorithm::in_network) || lv.lv->topology != LinkTopology::switched)
      return;
    ppn *= lv.g;
    nvls_bw = std::min(nvls_bw, lv.port_bw() * lc.in_network_cost.bw_factor);
  }
  const double nodes = top.g;
  // Each GPU's NIC carries its 1/ppn shard: once each way with 2 nodes, up and down the tree
  // with more (the ppn GPUs of a node share its uplink).
  const double nic_bw = crossing(top, c.link, digits[static_cast<std::size_t>(k - 1)], ppn).ring_bw();
  const double net_bw = ppn * nic_bw / (nodes <= 2 ? 1.0 : 2.0);
  const double lat = kNvlsTreeIntra + 2 * std::floor(std::log2(nodes)) * kNvlsTreeInter + r.extra_latency;
  sink.add(lat + divide(c.bytes, std::min(nvls_bw, net_bw)), CollAlgorithm::in_network, Protocol::simple,
           CommShape::flat);
}

// NCCL's tree of protocol p through every spanned level: the top level's base, 2 x depth hops per
// level, M over half the slowest level's channel rate; its terms into `terms` when given.
double flat_tree(const Collective& c, const CommRates& r, const std::array<int, kMaxLevels>& digits,
                 const std::array<LevelView, kMaxLevels>& v, int k, int p, CollectiveTerms* terms) {
  double lat = 0, bw = kInf;
  for (int i = 0; i < k; ++i) {
    const LevelView& lv = v[static_cast<std::size_t>(i)];
    const AlgorithmCost& a = proto_cost(lv.lv->collectives.tree, p);
    const double steps = 2 * tree_depth(lv);
    lat += steps * (a.hop + r.extra_latency);
    bw = std::min(bw, channel_bw(c.link, digits, v, i) * a.bw_factor);
    if (terms) {
      const auto n = static_cast<std::size_t>(terms->levels++);
      terms->level[n] = digits[static_cast<std::size_t>(i)];
      terms->steps[n] = steps;
      terms->hop_s[n] = a.hop + r.extra_latency;
    }
  }
  const double base = proto_cost(v[static_cast<std::size_t>(k - 1)].lv->collectives.tree, p).base;
  const double bw_s = divide(c.bytes, 0.5 * bw);
  if (terms) {
    terms->any = true;
    terms->base_s = base;
    terms->bandwidth_s = bw_s;
  }
  return base + lat + bw_s;
}

// A ring or tree through all n members across levels: latency per level, bandwidth of the
// slowest level (NCCL's flat ring across nodes; its tree chains inside, binary trees across).
void flat_candidates(const Collective& c, const CommRates& r, const std::array<int, kMaxLevels>& digits,
                     const std::array<LevelView, kMaxLevels>& v, int k, Sink& sink) {
  const LevelCollectives& top = v[static_cast<std::size_t>(k - 1)].lv->collectives;
  const double n = c.ranks;
  const bool reduce = c.kind == CommKind::all_reduce;
  if (c.kind == CommKind::all_to_all) {
    if (!top.allows(CollAlgorithm::direct)) return;
    // Traffic to the peers reached through level digits[i]: members differing there first.
    const double u = forwarding_unit(digits[0] == 0 && peer_memory_access(*v[0].lv), v[0].g);
    double t = 0, below = 1;
    for (int i = 0; i < k; ++i) {
      // Every member of the group inside one unit below sends its share across this level at
      // once: they share the unit's uplink (a ring or tree crosses it on one edge at a time).
      const LevelView lv =
          crossing(v[static_cast<std::size_t>(i)], c.link, digits[static_cast<std::size_t>(i)], below);
      // The fraction of what a rank sends that crosses it (moe_a2a_routing.hpp).
      const double share =
          a2a_share(c, fabric_is_network(lv.lv->collectives.fabric), lv.g, below, n, u, v[0].g);
      t = std::max(t, divide(share * c.bytes, lv.a2a_bw() * lv.lv->collectives.direct.bw_factor));
      below *= lv.g;
    }
    sink.add(top.direct.base + (n - 1) * top.direct.hop + r.extra_latency + t, CollAlgorithm::direct,
             Protocol::none, CommShape::flat);
    return;
  }
  if (c.kind == CommKind::p2p) return;
  double f = 0, steps = 0;
  ring_factors(c.kind, n, f, steps);
  // A flat ring or tree through every level needs every level to run it.
  const auto all_allow = [&](CollAlgorithm a) {
    for (int i = 0; i < k; ++i)
      if (!v[static_cast<std::size_t>(i)].lv->collectives.allows(a)) return false;
    return true;
  };
  if (all_allow(CollAlgorithm::nccl_ring)) {
    for (int p = 0; p < kProtocolCount; ++p) {
      double lat = 0, bw = kInf;
      // NCCL's proxy posts every step of a ring that crosses nodes (kNetOverhead).
      const double overhead =
          spans_network(v, k) ? kNetOverhead * (p == static_cast<int>(Protocol::simple) ? 3 : 1) : 0;
      for (int i = 0; i < k; ++i) {
        const LevelView& lv = v[static_cast<std::size_t>(i)];
        // Ring edges whose highest differing digit is digits[i] (edges_from(0) = n).
        const double edges = (i == 0 ? n : edges_from(c.link, digits, k, i)) -
                             (i + 1 < k ? edges_from(c.link, digits, k, i + 1) : 0);
        const AlgorithmCost& a = proto_cost(lv.lv->collectives.ring, p);
        lat += steps * edges / n *
               (std::max(a.hop * std::max(1.0, lv.paths.ring_hops), overhead) + r.extra_latency);
        bw = std::min(bw, channel_bw(c.link, digits, v, i) * a.bw_factor);
      }
      sink.add(proto_cost(top.ring, p).base + lat + divide(f * c.bytes, bw), CollAlgorithm::nccl_ring,
               static_cast<Protocol>(p), CommShape::flat);
    }
  }
  if (reduce && all_allow(CollAlgorithm::nccl_tree)) {
    for (int p = 0; p < kProtocolCount; ++p)
      sink.add(flat_tree(c, r, digits, v, k, p, nullptr), CollAlgorithm::nccl_tree, static_cast<Protocol>(p),
               CommShape::flat);
  }
  if (reduce) nvls_tree(c, r, digits, v, k, sink);
}

// Hierarchical all-reduce / reduce-scatter / all-gather over digits[i..k-1]: each phase the
// best single-level algorithm of its level; `inner` members of the group per unit below
// cross the outer levels at once (each on its 1/inner share).
double hierarchical(CommKind kind, double M, const LinkCost& link, const CommRates& r,
                    const std::array<int, kMaxLevels>& digits, const std::array<LevelView, kMaxLevels>& views,
                    int k, int i, double inner, CollAlgorithm* top_alg, Protocol* top_proto) {
  const auto ii = static_cast<std::size_t>(i);
  const LevelView v = inner > 1 ? crossing(views[ii], link, digits[ii], inner) : views[ii];
  if (i == k - 1) {
    Sink s;
    level_candidates(kind, M, v, r, CommShape::flat, s);
    if (!s.best.any) return kInf;
    *top_alg = s.best.algorithm;
    *top_proto = s.best.protocol;
    return s.best.seconds;
  }
  const double g = v.g;
  const auto next = [&](CommKind kk) {
    return hierarchical(kk, M / g, link, r, digits, views, k, i + 1, inner * g, top_alg, top_proto);
  };
  switch (kind) {
    case CommKind::all_reduce:
      return best_of(CommKind::reduce_scatter, M, v, r) + next(CommKind::all_reduce) +
             best_of(CommKind::all_gather, M, v, r);
    case CommKind::reduce_scatter:
      return best_of(CommKind::reduce_scatter, M, v, r) + next(CommKind::reduce_scatter);
    case CommKind::all_gather:
      return next(CommKind::all_gather) + best_of(CommKind::all_gather, M, v, r);
    default:
      return kInf;
  }
}

void all_candidates(const Collective& c, const MachineSpec& m, const CommRates& r, Sink& sink) {
  if (nothing_to_do(c) || c.link.level <= 0 || c.link.level > static_cast<int>(m.levels.size())) {
    // One PE (or a link outside the hierarchy): nothing crosses a link.
    if (!nothing_to_do(c))
      sink.add(ring_collective_time(c, r.bw_efficiency, r.extra_latency), CollAlgorithm::ring, Protocol::none,
               CommShape::flat);
    return;
  }
  const LevelSpec& top = m.levels[static_cast<std::size_t>(c.link.level - 1)];
  if (ring_only(top)) {
    sink.add(ring_collective_time(c, r.bw_efficiency, r.extra_latency), CollAlgorithm::ring, Protocol::none,
             CommShape::flat);
    return;
  }
  std::array<int, kMaxLevels> digits{};
  const int k = spanned_digits(m, c.link, digits);
  if (c.kind == CommKind::p2p || k <= 1) {
    const int d = k == 1 ? digits[0] : c.link.level - 1;
    LinkCost one = c.link;
    // A link without a shape (built by hand: level, bandwidth, latency only): the group is
    // its c.ranks members on that level (a message: a pair).
    if (k == 0) one.members[static_cast<std::size_t>(d)] = c.kind == CommKind::p2p ? 2 : c.ranks;
    level_candidates(c.kind, routed_one_level_bytes(c, one.members[static_cast<std::size_t>(d)]),
                     view(m, one, d, r, 1), r, CommShape::flat, sink);
  } else {
    std::array<LevelView, kMaxLevels> views;
    for (int i = 0; i < k; ++i)
      views[static_cast<std::size_t>(i)] = view(m, c.link, digits[static_cast<std::size_t>(i)], r, 1);
    flat_candidates(c, r, digits, views, k, sink);
    // NCCL (v2.30.7 tuning.cc) runs a group that crosses nodes as one ring, tree or NVLS tree
    // through every rank; it never composes separate collectives per level, so no
    // hierarchical candidate when a spanned level is a network.
    if ((c.kind == CommKind::all_reduce || c.kind == CommKind::all_gather ||
         c.kind == CommKind::reduce_scatter) &&
        !spans_network(views, k)) {
      CollAlgorithm a = CollAlgorithm::ring;
      Protocol p = Protocol::none;
      const double t = hierarchical(c.kind, c.bytes, c.link, r, digits, views, k, 0, 1, &a, &p);
      sink.add(t, a, p, CommShape::hierarchical);
    }
  }
  // None of the allowed algorithms runs this collective (all-to-all on a level that allows
  // only nccl_ring, an all-gather on `algorithm: one_shot`, zero bandwidth): the legacy ring
  // prices it rather than nothing (a collective is never free).
  if (sink.n == 0)
    sink.add(ring_collective_time(c, r.bw_efficiency, r.extra_latency), CollAlgorithm::ring, Protocol::none,
             CommShape::flat);
}

}  // namespace

double collective_wire_bytes(const Collective& c) {
  if (nothing_to_do(c)) return 0;
  if (c.kind == CommKind::all_to_all && c.route_top_k > 0) return routed_wire_bytes(c);
  double f = 0, steps = 0;
  ring_factors(c.kind, c.ranks, f, steps);
  return f * c.bytes;
}

double ring_collective_time(const Collective& c, double bw_efficiency, double extra_latency_s) {
  if (nothing_to_do(c)) return 0;
  double f = 0, steps = 0;
  ring_factors(c.kind, c.ranks, f, steps);
  const double bw = c.link.bandwidth * bw_efficiency;
  const double beta_term = bw > 0 ? f * c.bytes / bw : 0;
  return beta_term + steps * (c.link.latency + extra_latency_s);
}

CollectiveChoice collective_cost(const Collective& c, const MachineSpec& machine, const CommRates& rates) {
  // The same collective recurs across a sweep's configurations: a step timed under a
  // CollectiveMemoScope reads its answer from the memo (collective_memo.hpp).
  const detail::MemoSlot slot = detail::collective_memo_slot(c, machine, rates);
  if (slot.hit) return slot.entry->value;
  Sink s;
  all_candidates(c, machine, rates, s);
  if (slot.entry) detail::collective_memo_store(slot, c, rates, s.best);
  return s.best;
}

int collective_candidates(const Collective& c, const MachineSpec& machine, const CommRates& rates,
                          std::span<CollectiveChoice> out) {
  Sink s;
  s.out = out.data();
  s.cap = static_cast<int>(out.size());
  all_candidates(c, machine, rates, s);
  return std::min(s.n, s.cap);
}

CollectiveTerms collective_terms(const Collective& c, const MachineSpec& machine, const CommRates& rates,
                                 const CollectiveChoice& choice) {
  CollectiveTerms t;
  if (!choice.any || choice.algorithm != CollAlgorithm::nccl_tree || choice.shape != CommShape::flat ||
      c.kind != CommKind::all_reduce || nothing_to_do(c) || c.link.level <= 0 ||
      c.link.level > static_cast<int>(machine.levels.size()) ||
      ring_only(machine.levels[static_cast<std::size_t>(c.link.level - 1)]))
    return t;
  std::array<int, kMaxLevels> digits{};
  const int k = spanned_digits(machine, c.link, digits);
  if (k <= 1) return t;
  std::array<LevelView, kMaxLevels> views;
  for (int i = 0; i < k; ++i)
    views[static_cast<std::size_t>(i)] = view(machine, c.link, digits[static_cast<std::size_t>(i)], rates, 1);
  if (!spans_network(views, k)) return t;
  const double total = flat_tree(c, rates, digits, views, k, static_cast<int>(choice.protocol), &t);
  if (total != choice.seconds) return CollectiveTerms{};  // not the candidate priced: say nothing
  return t;
}

double p2p_message_time(const LinkCost& link, const MachineSpec& machine, double bytes,
                        const CommRates& rates) {
  if (link.level <= 0 || link.level > static_cast<int>(machine.levels.size()) ||
      ring_only(machine.levels[static_cast<std::size_t>(link.level - 1)])) {
    const double bw = link.bandwidth * rates.bw_efficiency;
    return link.latency + rates.extra_latency + (bw > 0 ? bytes / bw : 0);
  }
  const int d = link.level - 1;
  LinkCost one = link;
  if (one.members[static_cast<std::size_t>(d)] < 2) one.members[static_cast<std::size_t>(d)] = 2;
  return message_time(view(machine, one, d, rates, 1), bytes, rates);
}

}  // namespace tessera
