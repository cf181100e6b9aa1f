// Percentiles as np.percentile computes them, batch-means intervals, and the quantile sketch's
// 0.5 % guarantee (core/statistics/quantiles.hpp, core/statistics/quantile_sketch.hpp).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "analysis/requests/metric_stats.hpp"
#include "analysis/requests/random_stream.hpp"
#include "core/statistics/quantile_sketch.hpp"
#include "core/statistics/quantiles.hpp"

using namespace tessera;

TEST_CASE("percentiles interpolate between order statistics as numpy does") {
  const std::vector<double> v{1, 2, 3, 4};
  // np.percentile([1, 2, 3, 4], [0, 50, 90, 99, 100]) = 1, 2.5, 3.7, 3.97, 4
  CHECK(percentile_of_sorted(v, 0) == 1);
  CHECK(percentile_of_sorted(v, 50) == Approx(2.5));
  CHECK(percentile_of_sorted(v, 90) == Approx(3.7));
  CHECK(percentile_of_sorted(v, 99) == Approx(3.97));
  CHECK(percentile_of_sorted(v, 100) == 4);
  const std::vector<double> one{7};
  CHECK(percentile_of_sorted(one, 99) == 7);
  CHECK_THROWS(percentile_of_sorted(std::vector<double>{}, 50));
  CHECK_THROWS(percentile_of_sorted(v, 101));
}

TEST_CASE("batch means give the t interval of the batch statistics") {
  // Batches 1, 2, 3: mean 2, s = 1, t(2, 0.975) = 4.303: half-width 4.303 / sqrt(3) = 2.4844.
  const std::vector<double> b{1, 2, 3};
  CHECK(batch_means_half_width(b) == Approx(4.303 / std::sqrt(3.0)));
  CHECK(batch_means_half_width(b, 0.99) == Approx(9.925 / std::sqrt(3.0)));
  CHECK(std::isnan(batch_means_half_width(std::vector<double>{5})));
  CHECK(student_t(19, 0.975) == 2.093);
  // Beyond the table: t(40, 0.975) = 2.021, t(120, 0.995) = 2.617 (tables).
  CHECK(student_t(40, 0.975) == Approx(2.021).epsilon(1e-3));
  CHECK(student_t(120, 0.995) == Approx(2.617).epsilon(1e-3));
  CHECK(batch_count(1000) == 20);
  CHECK(batch_count(55) == 5);
  CHECK(batch_count(19) == 0);
  CHECK(batch_of(0, 1000, 20) == 0);
  CHECK(batch_of(49, 1000, 20) == 0);
  CHECK(batch_of(50, 1000, 20) == 1);
  CHECK(batch_of(999, 1000, 20) == 19);
}

TEST_CASE("the quantile sketch is within 0.5 percent of the exact percentile") {
  requests::RandomStream rng(42);
  std::vector<double> values;
  QuantileSketch sketch, half_a, half_b;
  for (int i = 0; i < 200000; ++i) {
    // Lognormal latencies around 50 ms with a heavy tail, and a few exact zeros.
    const double x = i % 1000 == 0 ? 0.0 : 0.05 * std::exp(0.8 * rng.normal());
    values.push_back(x);
    sketch.add(x);
    (i % 2 == 0 ? half_a : half_b).add(x);
  }
  std::sort(values.begin(), values.end());
  half_a.merge(half_b);
  double worst = 0;
  for (double q : {1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9}) {
    const double exact = percentile_of_sorted(values, q);
    const double err = std::abs(sketch.percentile(q) - exact) / exact;
    worst = std::max(worst, err);
    INFO("P" << q << ": exact " << exact << ", sketch " << sketch.percentile(q));
    CHECK(err <= kSketchAccuracy);
    CHECK(half_a.percentile(q) == sketch.percentile(q));  // merging loses nothing
  }
  CHECK(worst > 0);  // it is a sketch: not every figure exact
  CHECK(sketch.percentile(0) == 0);
  CHECK(sketch.percentile(100) == values.back());
  CHECK(sketch.count() == values.size());
  CHECK(sketch.buckets() < 3000);  // flat: the range of the values, not their number
  CHECK_THROWS(sketch.add(-1));
  // A value added with a count is that many values.
  QuantileSketch thrice, counted;
  for (double x : {0.5, 0.5, 0.5, 2.0}) thrice.add(x);
  counted.add(0.5, 3);
  counted.add(2.0);
  CHECK(counted.count() == 4);
  CHECK(counted.mean() == Approx(3.5 / 4));
  for (double q : {0.0, 50.0, 80.0, 100.0}) CHECK(counted.percentile(q) == thrice.percentile(q));
}

TEST_CASE("a metric summary is the same exact or sketched within 0.5 percent and has intervals") {
  requests::RandomStream rng(7);
  requests::MetricStats exact(5000, true), sketched(5000, false);
  for (std::uint64_t i = 0; i < 5000; ++i) {
    const double x = 0.2 + 0.1 * rng.exponential();
    exact.add(i, x);
    sketched.add(i, x);
  }
  const auto a = exact.summary(), b = sketched.summary();
  CHECK(a.count == 5000);
  CHECK(a.mean == Approx(b.mean).epsilon(1e-12));
  for (std::size_t p = 0; p < 3; ++p) {
    CHECK(std::abs(a.percentile[p] - b.percentile[p]) <= kSketchAccuracy * a.percentile[p]);
    CHECK(a.half_width[p] > 0);
    CHECK(a.half_width[p] < 0.1 * a.percentile[p]);
  }
  // The mean of 0.2 + 0.1 Exp(1) is 0.3; the interval of 5000 values is about ±0.003.
  CHECK(std::abs(a.mean - 0.3) < 3 * a.mean_half_width);
  CHECK(a.mean_half_width < 0.01);
  const requests::MetricStats none(10, true);
  CHECK(std::isnan(none.summary().mean));
}
