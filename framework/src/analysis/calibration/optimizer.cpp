#include "analysis/calibration/optimizer.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tessera::calibration {

std::vector<double> nelder_mead(const Objective& f, std::vector<double> x0, double step, int max_evals,
                                double& best) {
  const std::size_t n = x0.size();
  std::vector<std::vector<double>> pts(n + 1, x0);
  for (std::size_t i = 0; i < n; ++i) pts[i + 1][i] += step;
  std::vector<double> val(n + 1);
  for (std::size_t i = 0; i <= n; ++i) val[i] = f(pts[i]);
  int evals = static_cast<int>(n + 1);
  std::vector<std::size_t> ord(n + 1);
  while (evals < max_evals) {
    std::iota(ord.begin(), ord.end(), std::size_t{0});
    std::sort(ord.begin(), ord.end(), [&](std::size_t a, std::size_t b) { return val[a] < val[b]; });
    const std::size_t lo = ord[0], hi = ord[n], nh = ord[n - 1];
    if (std::abs(val[hi] - val[lo]) < 1e-9) break;
    std::vector<double> c(n, 0.0);
    for (std::size_t i = 0; i <= n; ++i)
      if (i != hi)
        for (std::size_t j = 0; j < n; ++j) c[j] += pts[i][j] / static_cast<double>(n);
    auto along = [&](double t) {
      std::vector<double> y(n);
      for (std::size_t j = 0; j < n; ++j) y[j] = c[j] + t * (pts[hi][j] - c[j]);
      return y;
    };
    auto xr = along(-1.0);
    const double fr = f(xr);
    ++evals;
    if (fr < val[lo]) {
      auto xe = along(-2.0);
      const double fe = f(xe);
      ++evals;
      pts[hi] = fe < fr ? xe : xr;
      val[hi] = std::min(fe, fr);
    } else if (fr < val[nh]) {
      pts[hi] = xr;
      val[hi] = fr;
    } else {
      auto xc = along(fr < val[hi] ? -0.5 : 0.5);
      const double fc = f(xc);
      ++evals;
      if (fc < std::min(fr, val[hi])) {
        pts[hi] = xc;
        val[hi] = fc;
      } else {
        for (std::size_t i = 0; i <= n; ++i) {
          if (i == lo) continue;
          for (std::size_t j = 0; j < n; ++j) pts[i][j] = pts[lo][j] + 0.5 * (pts[i][j] - pts[lo][j]);
          val[i] = f(pts[i]);
          ++evals;
        }
      }
    }
  }
  std::size_t b = 0;
  for (std::size_t i = 1; i <= n; ++i)
    if (val[i] < val[b]) b = i;
  best = val[b];
  return pts[b];
}

std::vector<double> coordinate_search(const Objective& f, std::vector<double> x,
                                      const std::vector<Transform>& tr, int sweeps, double& best) {
  best = f(x);
  const double g = (std::sqrt(5.0) - 1) / 2;
  const int kScan = 24;
  for (int sw = 0; sw < sweeps; ++sw) {
    const double start = best;
    for (std::size_t i = 0; i < x.size(); ++i) {
      auto at = [&](double v) {
        std::vector<double> y = x;
        y[i] = v;
        return f(y);
      };
      const auto [lo, hi] = scan_range(tr[i]);
      const double h = (hi - lo) / (kScan - 1);
      double bx = x[i], bf = best;
      for (int k = 0; k < kScan; ++k) {
        const double v = lo + k * h, fv = at(v);
        if (fv < bf) {
          bf = fv;
          bx = v;
        }
      }
      double a = bx - h, b = bx + h;
      double c = b - g * (b - a), d = a + g * (b - a), fc = at(c), fd = at(d);
      for (int it = 0; it < 14; ++it) {
        if (fc < fd) {
          b = d;
          d = c;
          fd = fc;
          c = b - g * (b - a);
          fc = at(c);
        } else {
          a = c;
          c = d;
          fc = fd;
          d = a + g * (b - a);
          fd = at(d);
        }
      }
      if (fc < bf) {
        bf = fc;
        bx = c;
      }
      if (fd < bf) {
        bf = fd;
        bx = d;
      }
      if (bf < best) {
        best = bf;
        x[i] = bx;
      }
    }
    if (start - best < 1e-7) break;
  }
  return x;
}

std::vector<double> minimise(const Objective& f, std::vector<double> x, const std::vector<Transform>& tr,
                             const OptimizerOptions& o, double& best) {
  best = f(x);
  if (x.empty()) return x;
  double prev = best;
  for (int r = 0; r < o.rounds; ++r) {
    x = coordinate_search(f, x, tr, o.sweeps, best);
    x = nelder_mead(f, x, 0.2, o.evals_per_round, best);
    if (r > 0 && prev - best < 1e-6) break;
    prev = best;
  }
  return x;
}

}  // namespace tessera::calibration
