// Knight (1966), "A computer method for calculating Kendall's tau with ungrouped data".
#include "analysis/search/kendall.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "tessera/error.hpp"

namespace tessera {

namespace {

std::uint64_t pairs(std::uint64_t k) { return k * (k - 1) / 2; }

// Sorts v[lo, hi) ascending, returning the number of inversions (pairs i < j with v[i] > v[j]).
std::uint64_t merge_count(std::vector<double>& v, std::vector<double>& buf, std::size_t lo, std::size_t hi) {
  if (hi - lo < 2) return 0;
  const std::size_t mid = lo + (hi - lo) / 2;
  std::uint64_t swaps = merge_count(v, buf, lo, mid) + merge_count(v, buf, mid, hi);
  std::size_t i = lo, j = mid, k = lo;
  while (i < mid && j < hi) {
    if (v[j] < v[i]) {
      swaps += mid - i;  // v[j] jumps over every remaining element of the left half
      buf[k++] = v[j++];
    } else {
      buf[k++] = v[i++];
    }
  }
  while (i < mid) buf[k++] = v[i++];
  while (j < hi) buf[k++] = v[j++];
  std::copy(buf.begin() + static_cast<std::ptrdiff_t>(lo), buf.begin() + static_cast<std::ptrdiff_t>(hi),
            v.begin() + static_cast<std::ptrdiff_t>(lo));
  return swaps;
}

double tau_from(const KendallResult& r) {
  const double n0 = static_cast<double>(pairs(r.n));
  const double den = std::sqrt((n0 - static_cast<double>(r.ties_x)) * (n0 - static_cast<double>(r.ties_y)));
  if (den <= 0) return std::numeric_limits<double>::quiet_NaN();
  return (static_cast<double>(r.concordant) - static_cast<double>(r.discordant)) / den;
}

void check(std::span<const double> x, std::span<const double> y) {
  if (x.size() != y.size()) throw Error("kendall_tau_b: the two rankings have different lengths");
  for (std::size_t i = 0; i < x.size(); ++i)
    if (std::isnan(x[i]) || std::isnan(y[i])) throw Error("kendall_tau_b: NaN score");
}

}  // namespace

KendallResult kendall_tau_b(std::span<const double> x, std::span<const double> y) {
  check(x, y);
  KendallResult r;
  const std::size_t n = x.size();
  r.n = n;
  if (n < 2) {
    r.tau_b = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::sort(idx.begin(), idx.end(),
            [&](std::size_t a, std::size_t b) { return x[a] < x[b] || (x[a] == x[b] && y[a] < y[b]); });
  // Ties in x, and in both x and y, from runs of the sorted order.
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && x[idx[j]] == x[idx[i]]) ++j;
    r.ties_x += pairs(j - i);
    for (std::size_t a = i; a < j;) {
      std::size_t b = a + 1;
      while (b < j && y[idx[b]] == y[idx[a]]) ++b;
      r.ties_xy += pairs(b - a);
      a = b;
    }
    i = j;
  }
  // Discordant pairs = inversions of y in that order (ties in x are sorted by y: no inversion).
  std::vector<double> ys(n), buf(n);
  for (std::size_t i = 0; i < n; ++i) ys[i] = y[idx[i]];
  r.discordant = merge_count(ys, buf, 0, n);
  for (std::size_t i = 0; i < n;) {  // ys is now sorted: runs are the ties in y
    std::size_t j = i + 1;
    while (j < n && ys[j] == ys[i]) ++j;
    r.ties_y += pairs(j - i);
    i = j;
  }
  r.concordant = pairs(n) - r.ties_x - r.ties_y + r.ties_xy - r.discordant;
  r.tau_b = tau_from(r);
  return r;
}

KendallResult kendall_tau_b_bruteforce(std::span<const double> x, std::span<const double> y) {
  check(x, y);
  KendallResult r;
  r.n = x.size();
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      const bool tx = x[i] == x[j], ty = y[i] == y[j];
      if (tx) ++r.ties_x;
      if (ty) ++r.ties_y;
      if (tx && ty) ++r.ties_xy;
      if (tx || ty) continue;
      if ((x[i] < x[j]) == (y[i] < y[j]))
        ++r.concordant;
      else
        ++r.discordant;
    }
  r.tau_b = r.n < 2 ? std::numeric_limits<double>::quiet_NaN() : tau_from(r);
  return r;
}

}  // namespace tessera
