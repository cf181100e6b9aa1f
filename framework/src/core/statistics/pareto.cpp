#include "core/statistics/pareto.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>

#include "tessera/error.hpp"

namespace tessera {

namespace {

// Minimisation form: rows of k values (maximised objectives negated), eligible points only.
struct Points {
  std::size_t k = 0;
  std::vector<double> v;          // m*k
  std::vector<std::size_t> orig;  // original index of each row
  const double* row(std::size_t i) const { return v.data() + i * k; }
};

// Checks the arguments; returns the number of points.
std::size_t validate(std::span<const double> values, std::size_t k, std::span<const Direction> directions,
                     std::span<const bool> feasible) {
  if (k == 0) throw Error("pareto_front: no objectives");
  if (directions.size() != k) throw Error("pareto_front: one direction per objective is needed");
  if (values.size() % k != 0) throw Error("pareto_front: values is not a multiple of the objective count");
  const std::size_t n = values.size() / k;
  if (!feasible.empty() && feasible.size() != n) throw Error("pareto_front: feasible has the wrong size");
  return n;
}

Points prepare(std::span<const double> values, std::size_t k, std::span<const Direction> directions,
               std::span<const bool> feasible) {
  const std::size_t n = validate(values, k, directions, feasible);
  Points p;
  p.k = k;
  p.v.reserve(values.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (!feasible.empty() && !feasible[i]) continue;
    bool ok = true;
    for (std::size_t j = 0; j < k; ++j) ok = ok && !std::isnan(values[i * k + j]);
    if (!ok) continue;
    for (std::size_t j = 0; j < k; ++j) {
      const double x = values[i * k + j];
      p.v.push_back(directions[j] == Direction::maximize ? -x : x);
    }
    p.orig.push_back(i);
  }
  return p;
}

// Rows sorted lexicographically (ties by original index: stable).
std::vector<std::size_t> lex_order(const Points& p) {
  std::vector<std::size_t> order(p.orig.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const double* ra = p.row(a);
    const double* rb = p.row(b);
    for (std::size_t j = 0; j < p.k; ++j) {
      if (ra[j] < rb[j]) return true;
      if (rb[j] < ra[j]) return false;
    }
    return a < b;
  });
  return order;
}

bool dominates(const double* a, const double* b, std::size_t k) {
  bool strict = false;
  for (std::size_t j = 0; j < k; ++j) {
    if (a[j] > b[j]) return false;
    if (a[j] < b[j]) strict = true;
  }
  return strict;
}

// 2 objectives. Sorted by (x, y): within a run of equal x only the smallest y can survive; it
// is dominated iff an earlier run (strictly smaller x) reached y' <= y.
void front2(const Points& p, const std::vector<std::size_t>& order, std::vector<char>& keep) {
  double best_prev = INFINITY;
  std::size_t i = 0;
  while (i < order.size()) {
    const double x = p.row(order[i])[0];
    const double ymin = p.row(order[i])[1];
    std::size_t j = i;
    while (j < order.size() && p.row(order[j])[0] == x) {
      const double y = p.row(order[j])[1];
      keep[order[j]] = (y == ymin && best_prev > y) ? 1 : 0;
      ++j;
    }
    best_prev = std::min(best_prev, ymin);
    i = j;
  }
}

// A 2-D minimisation staircase: y ascending, z strictly descending.
class Staircase {
 public:
  // Some stored (y', z') has y' <= y and z' <= z.
  bool covers(double y, double z) const {
    auto it = s_.upper_bound(y);
    if (it == s_.begin()) return false;
    --it;
    return it->second <= z;
  }
  void insert(double y, double z) {
    if (covers(y, z)) return;
    // Remove the points (y', z') with y' >= y and z' >= z: they start at lower_bound(y).
    auto it = s_.lower_bound(y);
    while (it != s_.end() && it->second >= z) it = s_.erase(it);
    s_.emplace_hint(it, y, z);
  }

 private:
  std::map<double, double> s_;
};

// 3 objectives. Sorted by (x, y, z): points with strictly smaller x dominate p iff one of them
// has y' <= y and z' <= z (the staircase of all earlier runs); within a run of equal x, p is
// dominated iff another point of the run 2-D-dominates it on (y, z) — run sorted by (y, z),
// so that is the 2-D sweep.
void front3(const Points& p, const std::vector<std::size_t>& order, std::vector<char>& keep) {
  Staircase stair;
  std::size_t i = 0;
  while (i < order.size()) {
    const double x = p.row(order[i])[0];
    std::size_t j = i;
    while (j < order.size() && p.row(order[j])[0] == x) ++j;
    // Within-run 2-D sweep on (y, z), the run already sorted by (y, z).
    double best_prev = INFINITY;
    std::size_t a = i;
    while (a < j) {
      const double y = p.row(order[a])[1];
      const double zmin = p.row(order[a])[2];
      std::size_t b = a;
      while (b < j && p.row(order[b])[1] == y) {
        const double z = p.row(order[b])[2];
        const bool in_run = (z == zmin && best_prev > z);
        keep[order[b]] = (in_run && !stair.covers(y, z)) ? 1 : 0;
        ++b;
      }
      best_prev = std::min(best_prev, zmin);
      a = b;
    }
    for (std::size_t t = i; t < j; ++t) stair.insert(p.row(order[t])[1], p.row(order[t])[2]);
    i = j;
  }
}

// k objectives: in lexicographic order a dominator precedes what it dominates, and some
// frontier point dominates every dominated point (transitivity), so checking each point
// against the frontier found so far is exact.
void front_general(const Points& p, const std::vector<std::size_t>& order, std::vector<char>& keep) {
  std::vector<std::size_t> front;
  for (std::size_t idx : order) {
    const double* r = p.row(idx);
    bool dominated = false;
    for (std::size_t f : front)
      if (dominates(p.row(f), r, p.k)) {
        dominated = true;
        break;
      }
    keep[idx] = dominated ? 0 : 1;
    if (!dominated) front.push_back(idx);
  }
}

// 2 and 3 objectives, the common case, on rows sorted in place: the same sweeps as front2 and
// front3 above, but each point's values and index travel together (one contiguous array
// sorted directly, no index indirection), about twice as fast on 10^6 points.
template <std::size_t K>
struct Row {
  std::array<double, K> v;  // minimisation form
  std::size_t orig;         // index of the point in the caller's values
};

template <std::size_t K>
std::vector<Row<K>> sorted_rows(std::span<const double> values, std::size_t n,
                                std::span<const Direction> directions, std::span<const bool> feasible) {
  std::vector<Row<K>> rows;
  rows.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (!feasible.empty() && !feasible[i]) continue;
    Row<K> r;
    bool ok = true;
    for (std::size_t j = 0; j < K; ++j) {
      const double x = values[i * K + j];
      ok = ok && !std::isnan(x);
      r.v[j] = directions[j] == Direction::maximize ? -x : x;
    }
    if (!ok) continue;
    r.orig = i;
    rows.push_back(r);
  }
  std::sort(rows.begin(), rows.end(), [](const Row<K>& a, const Row<K>& b) {
    for (std::size_t j = 0; j < K; ++j) {
      if (a.v[j] < b.v[j]) return true;
      if (b.v[j] < a.v[j]) return false;
    }
    return a.orig < b.orig;
  });
  return rows;
}

std::vector<std::size_t> front2_rows(const std::vector<Row<2>>& rows) {
  std::vector<std::size_t> out;
  double best_prev = INFINITY;
  std::size_t i = 0;
  while (i < rows.size()) {
    const double x = rows[i].v[0];
    const double ymin = rows[i].v[1];
    std::size_t j = i;
    while (j < rows.size() && rows[j].v[0] == x) {
      const double y = rows[j].v[1];
      if (y == ymin && best_prev > y) out.push_back(rows[j].orig);
      ++j;
    }
    best_prev = std::min(best_prev, ymin);
    i = j;
  }
  return out;
}

std::vector<std::size_t> front3_rows(const std::vector<Row<3>>& rows) {
  std::vector<std::size_t> out;
  Staircase stair;
  std::size_t i = 0;
  while (i < rows.size()) {
    const double x = rows[i].v[0];
    std::size_t j = i;
    while (j < rows.size() && rows[j].v[0] == x) ++j;
    double best_prev = INFINITY;
    std::size_t a = i;
    while (a < j) {
      const double y = rows[a].v[1];
      const double zmin = rows[a].v[2];
      std::size_t b = a;
      while (b < j && rows[b].v[1] == y) {
        const double z = rows[b].v[2];
        if (z == zmin && best_prev > z && !stair.covers(y, z)) out.push_back(rows[b].orig);
        ++b;
      }
      best_prev = std::min(best_prev, zmin);
      a = b;
    }
    for (std::size_t t = i; t < j; ++t) stair.insert(rows[t].v[1], rows[t].v[2]);
    i = j;
  }
  return out;
}

std::vector<std::size_t> collect(const Points& p, const std::vector<char>& keep) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < keep.size(); ++i)
    if (keep[i]) out.push_back(p.orig[i]);
  return out;  // orig is ascending, so out is too
}

}  // namespace

std::vector<std::size_t> pareto_front(std::span<const double> values, std::size_t k,
                                      std::span<const Direction> directions, std::span<const bool> feasible) {
  if (k == 2 || k == 3) {
    const std::size_t n = validate(values, k, directions, feasible);
    std::vector<std::size_t> out = k == 2 ? front2_rows(sorted_rows<2>(values, n, directions, feasible))
                                          : front3_rows(sorted_rows<3>(values, n, directions, feasible));
    std::sort(out.begin(), out.end());
    return out;
  }
  const Points p = prepare(values, k, directions, feasible);
  std::vector<char> keep(p.orig.size(), 0);
  if (p.orig.empty()) return {};
  const std::vector<std::size_t> order = lex_order(p);
  if (k == 1) {
    const double best = p.row(order.front())[0];
    for (std::size_t i = 0; i < p.orig.size(); ++i) keep[i] = p.row(i)[0] == best ? 1 : 0;
  } else if (k == 2) {
    front2(p, order, keep);
  } else if (k == 3) {
    front3(p, order, keep);
  } else {
    front_general(p, order, keep);
  }
  return collect(p, keep);
}

std::vector<std::size_t> pareto_front_bruteforce(std::span<const double> values, std::size_t k,
                                                 std::span<const Direction> directions,
                                                 std::span<const bool> feasible) {
  const Points p = prepare(values, k, directions, feasible);
  std::vector<char> keep(p.orig.size(), 1);
  for (std::size_t i = 0; i < p.orig.size(); ++i)
    for (std::size_t j = 0; j < p.orig.size() && keep[i]; ++j)
      if (j != i && dominates(p.row(j), p.row(i), k)) keep[i] = 0;
  return collect(p, keep);
}

}  // namespace tessera
