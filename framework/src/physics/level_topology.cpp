// Closed forms of what a level's topology gives a group inside one of its units
// (docs/physics.md §6, "Topology of a level"). No allocation: called when a layout is built.
//
// Notation: n = fanout, B = link_bw (a PE's injection per direction into the level), g members
// s apart. Ring and torus: per-link bandwidth b = B / (links per PE); an aligned group is, per
// dimension j of extent d_j, g_j members s_j apart, spanning the dimension (g_j * s_j = d_j: a
// sub-ring, both directions, paths_j = 2 when d_j > 2) or a segment of it (a line, paths_j =
// 1). Rules, each derived in docs/physics.md §6:
//   ring collective  bw_j = paths_j * b / s_j per dimension; the data is split over the
//                    dimensions, each part reduced dimension by dimension in a rotated order, so
//                    every dimension's links are busy: ring_bw = sum_j bw_j; a step is s_j hops;
//                    steps sum_j (g_j - 1). A line (segment) runs the bidirectional bucket
//                    algorithm (neighbour steps), bound by an end member's single link: b / s_j.
//   all-to-all       the worst of the cuts across each used dimension j (half the members send
//                    |A||B| M/g across (g/g_j) * paths_j links of b / s_j) and of the injection
//                    bound ring_bw.
//   point-to-point   one path along the first used dimension, s_j hops, its links shared by the
//                    s_j interleaved senders (2 paths when both ways are shortest).
#include "tessera/physics/level_topology.hpp"

#include <algorithm>
#include <array>
#include <limits>

namespace tessera {
namespace {

// The torus extents a level is priced with: its dims when valid, else one ring of fanout.
struct Shape {
  std::array<std::int64_t, kMaxTorusDims> d{};
  int count = 0;
  std::int64_t n = 1;  // product of the extents (= fanout)
};

Shape shape_of(const LevelSpec& lv) {
  Shape s;
  s.n = std::max<std::int64_t>(1, lv.fanout);
  if (lv.topology == LinkTopology::torus && lv.dim_count > 0 && lv.dim_count <= kMaxTorusDims) {
    std::int64_t prod = 1;
    bool ok = true;
    for (int i = 0; i < lv.dim_count; ++i) {
      const std::int64_t e = lv.dims[static_cast<std::size_t>(i)];
      if (e < 1 || prod > s.n) ok = false;
      prod *= std::max<std::int64_t>(1, e);
    }
    if (ok && prod == s.n) {
      for (int i = 0; i < lv.dim_count; ++i)
        s.d[static_cast<std::size_t>(i)] = lv.dims[static_cast<std::size_t>(i)];
      s.count = lv.dim_count;
      return s;
    }
  }
  s.d[0] = s.n;
  s.count = 1;
  return s;
}

// Links a PE has in one dimension: both neighbours when the extent exceeds 2, the one
// neighbour (one link) when it is 2, none when 1.
std::int64_t dim_links(std::int64_t extent) { return extent > 2 ? 2 : (extent == 2 ? 1 : 0); }

std::int64_t total_links(const Shape& sh) {
  std::int64_t l = 0;
  for (int j = 0; j < sh.count; ++j) l += dim_links(sh.d[static_cast<std::size_t>(j)]);
  return l;
}

std::int64_t wrap_distance(std::int64_t a, std::int64_t b, std::int64_t d) {
  const std::int64_t x = a > b ? a - b : b - a;
  return std::min(x, d - x);
}

std::int64_t unit_index(std::int64_t a, std::int64_t n) { return ((a % n) + n) % n; }

std::int64_t torus_hops(const Shape& sh, std::int64_t a, std::int64_t b) {
  a = unit_index(a, sh.n);
  b = unit_index(b, sh.n);
  std::int64_t hops = 0;
  for (int j = 0; j < sh.count; ++j) {
    const std::int64_t d = sh.d[static_cast<std::size_t>(j)];
    hops += wrap_distance(a % d, b % d, d);
    a /= d;
    b /= d;
  }
  return hops;
}

// Per-dimension progression of an aligned group (members g_j, stride s_j); false when the
// group does not tile the dimensions (then the fallback prices it).
struct Progression {
  std::array<std::int64_t, kMaxTorusDims> g{};
  std::array<std::int64_t, kMaxTorusDims> s{};
};

bool decompose(const Shape& sh, std::int64_t g, std::int64_t s, Progression& out) {
  std::int64_t rest_g = g, rest_s = s;
  for (int j = 0; j < sh.count; ++j) {
    const auto i = static_cast<std::size_t>(j);
    const std::int64_t d = sh.d[i];
    out.g[i] = 1;
    out.s[i] = 1;
    if (rest_g == 1) continue;
    if (rest_s >= d) {
      if (rest_s % d != 0) return false;
      rest_s /= d;
      continue;
    }
    if (d % rest_s != 0) return false;
    const std::int64_t cap = d / rest_s;
    out.s[i] = rest_s;
    if (rest_g <= cap) {
      out.g[i] = rest_g;
      rest_g = 1;
    } else {
      if (rest_g % cap != 0) return false;
      out.g[i] = cap;
      rest_g /= cap;
      rest_s = 1;
    }
  }
  return rest_g == 1;
}

// floor(m/2) * ceil(m/2): ordered member pairs split by a cut through the middle, halved.
double half_product(std::int64_t m) { return static_cast<double>(m / 2) * static_cast<double>((m + 1) / 2); }

LevelPaths torus_paths(const LevelSpec& lv, std::int64_t g, std::int64_t s) {
  LevelPaths p;
  const Shape sh = shape_of(lv);
  const std::int64_t links = total_links(sh);
  if (links == 0) return p;
  p.links = static_cast<double>(links);
  const double b = lv.link_bw / static_cast<double>(links);
  const double gd = static_cast<double>(g);
  const double spread = (gd - 1) / gd;  // (g-1)/g: the share of M a member sends away

  Progression pr;
  if (decompose(sh, g, s, pr)) {
    double a2a = std::numeric_limits<double>::infinity();
    bool first = true;
    for (int j = 0; j < sh.count; ++j) {
      const auto i = static_cast<std::size_t>(j);
      const std::int64_t gj = pr.g[i], sj = pr.s[i], dj = sh.d[i];
      if (gj <= 1) continue;
      const bool spans = gj * sj == dj;
      const double paths = spans && dj > 2 ? 2.0 : 1.0;
      const double sjd = static_cast<double>(sj);
      const double bw = paths * b / sjd;
      p.ring_bw += bw;
      p.ring_hops = std::max(p.ring_hops, sjd);
      p.ring_steps += static_cast<double>(gj - 1);
      // Members k apart are s_j * min(k, d_j/s_j - k) hops apart (the shorter way round).
      p.max_hops += sjd * static_cast<double>(std::min(gj - 1, (dj / sj) / 2));
      // Cut across dimension j: |A| |B| M/g = (g/g_j)^2 half_product(g_j) M/g crosses
      // (g/g_j) * paths links of b/s_j: time = half_product(g_j) M s_j / (g_j paths b).
      a2a = std::min(a2a, spread * static_cast<double>(gj) * paths * b / (sjd * half_product(gj)));
      if (first) {
        first = false;
        p.p2p_hops = sjd;
        const double p2p_paths = dj > 2 && 2 * sj == dj ? 2.0 : 1.0;
        p.p2p_bw = p2p_paths * b / sjd;
      }
    }
    p.a2a_bw = std::min(a2a, p.ring_bw);
    return p;
  }
  // Not aligned: a line through the members in index order, every path's links shared by as
  // many senders as it has hops; the diameter over all pairs (up to 64 members), else the
  // unit's diameter as a bound.
  double step = 1;
  for (std::int64_t k = 0; k + 1 < g; ++k)
    step = std::max(step, static_cast<double>(torus_hops(sh, k * s, (k + 1) * s)));
  const double first_hops = static_cast<double>(std::max<std::int64_t>(1, torus_hops(sh, 0, s)));
  p.p2p_hops = first_hops;
  p.p2p_bw = b / first_hops;
  p.ring_hops = step;
  p.ring_bw = b / step;
  p.ring_steps = gd - 1;
  if (g <= 64) {
    for (std::int64_t x = 0; x < g; ++x)
      for (std::int64_t y = x + 1; y < g; ++y)
        p.max_hops = std::max(p.max_hops, static_cast<double>(torus_hops(sh, x * s, y * s)));
  } else {
    for (int j = 0; j < sh.count; ++j)
      p.max_hops += static_cast<double>(sh.d[static_cast<std::size_t>(j)] / 2);
  }
  p.a2a_bw = std::min(p.ring_bw, spread * gd * b / (step * half_product(g)));
  return p;
}

}  // namespace

LevelPaths level_paths(const LevelSpec& level, std::int64_t g, std::int64_t stride) {
  LevelPaths p;
  const std::int64_t n = level.fanout;
  if (g <= 1 || n <= 1) return p;
  const std::int64_t s = std::max<std::int64_t>(1, stride);
  const double B = level.link_bw;
  switch (level.topology) {
    case LinkTopology::switched:
      // One port: every pattern runs at the port's bandwidth, one hop through the switch.
      p.p2p_bw = p.ring_bw = p.a2a_bw = B;
      p.p2p_hops = p.ring_hops = p.max_hops = 1;
      p.ring_steps = static_cast<double>(g - 1);
      p.links = 1;
      return p;
    case LinkTopology::all_to_all: {
      // fanout-1 links of b; the g-1 links to the other members carry rings (g-1 directed
      // Hamiltonian rings of the members' complete graph) and all-to-all in parallel.
      const double b = B / static_cast<double>(n - 1);
      const double peers = static_cast<double>(std::min(g, n) - 1);
      p.p2p_bw = b;
      p.ring_bw = p.a2a_bw = peers * b;
      p.p2p_hops = p.ring_hops = p.max_hops = 1;
      p.ring_steps = static_cast<double>(g - 1);
      p.links = static_cast<double>(n - 1);
      return p;
    }
    case LinkTopology::ring:
    case LinkTopology::torus:
      break;
  }
  return torus_paths(level, g, s);
}

std::int64_t level_hops(const LevelSpec& level, std::int64_t a, std::int64_t b) {
  const std::int64_t n = std::max<std::int64_t>(1, level.fanout);
  if (unit_index(a, n) == unit_index(b, n)) return 0;
  switch (level.topology) {
    case LinkTopology::switched:
    case LinkTopology::all_to_all:
      return 1;
    case LinkTopology::ring:
    case LinkTopology::torus:
      break;
  }
  return torus_hops(shape_of(level), a, b);
}

std::int64_t level_bisection_links(const LevelSpec& level) {
  const std::int64_t n = level.fanout;
  if (n < 2) return 0;
  switch (level.topology) {
    case LinkTopology::switched:
      return n / 2;
    case LinkTopology::all_to_all:
      return (n / 2) * ((n + 1) / 2);
    case LinkTopology::ring:
    case LinkTopology::torus:
      break;
  }
  const Shape sh = shape_of(level);
  std::int64_t largest = 1;
  for (int j = 0; j < sh.count; ++j) largest = std::max(largest, sh.d[static_cast<std::size_t>(j)]);
  return (largest > 2 ? 2 : 1) * (sh.n / largest);
}

}  // namespace tessera
