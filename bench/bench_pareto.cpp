// Pareto extraction (core/statistics/pareto.hpp) on 10^6 random points:
//  BM_Pareto/3/uniform   the figure: 3 objectives, i.i.d. uniform (small frontier)
//  BM_Pareto/3/plane     3 objectives on the plane x + y + z = 1 (every point non-dominated:
//                        the worst case of the staircase)
//  BM_Pareto/2, /4       2 and 4 objectives, uniform, for comparison.
// Counter front: the frontier's size.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/statistics/pareto.hpp"

using namespace tessera;

namespace {

std::vector<double> points(std::size_t n, std::size_t k, bool plane) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> v(n * k);
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (std::size_t j = 0; j < k; ++j) sum += v[i * k + j] = u(rng);
    if (plane)
      for (std::size_t j = 0; j < k; ++j) v[i * k + j] /= sum;
  }
  return v;
}

void BM_Pareto(benchmark::State& state, std::size_t k, bool plane) {
  const std::size_t n = static_cast<std::size_t>(state.range(0));
  const std::vector<double> v = points(n, k, plane);
  const std::vector<Direction> dirs(k, Direction::minimize);
  std::size_t front = 0;
  for (auto _ : state) {
    const auto f = pareto_front(v, k, dirs);
    front = f.size();
    benchmark::DoNotOptimize(f.data());
  }
  state.counters["front"] = static_cast<double>(front);
  state.counters["points"] = static_cast<double>(n);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Pareto, 3_uniform, 3, false)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Pareto, 3_plane, 3, true)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Pareto, 2_uniform, 2, false)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Pareto, 4_uniform, 4, false)->Arg(1000000)->Unit(benchmark::kMillisecond);
