// Whole sweeps through the search driver (exhaustive search plugin, real plugins):
//  BM_Sweep/default/threads:N  the default scenario (Llama-3.1-70B decode 128K, cube-sip),
//                              GridSpace construction included, wall time; the figure
//                              is threads:2.
//  BM_Sweep/deepseek_v3        DeepSeek-V3 decode 32K on DGX H200, 2 threads.
//  BM_GridSpace/default        building the default scenario's grid alone (part of BM_Sweep).
//  BM_SweepScaling/<n_cp>      synthetic grids of growing size (bench_common.hpp), 2 threads:
//                              counters configs and ns_per_config show how cost grows.
//  BM_SweepUnits/<unit_size>   one synthetic grid (n_cp 16) on 2 threads planned as work units
//                              of unit_size configurations (docs/architecture.md "Studies: plan,
//                              work units, merge"; 0 = one unit, every batch on both threads):
//                              what the plan and its exact merge cost against one unit.
#include <benchmark/benchmark.h>

#include <functional>
#include <map>

#include "bench_common.hpp"

using namespace tessera;
using namespace tessera::bench;

namespace {

Prepared& prepared(const std::string& key, const std::function<Scenario()>& make) {
  static std::map<std::string, std::unique_ptr<Prepared>> cache;
  auto& p = cache[key];
  if (!p) p = std::make_unique<Prepared>(make());
  return *p;
}

void run_sweep(benchmark::State& state, Prepared& p, unsigned threads, std::uint64_t unit_size = 0) {
  const auto strategy = registry().create_search(p.scenario.plugins.search);
  SearchOptions o;
  o.threads = threads;
  o.unit_size = unit_size;
  std::uint64_t evaluated = 0;
  const std::uint64_t allocs0 = allocation_count();
  for (auto _ : state) {
    const SearchResult r = run_search(*p.session, *strategy, o);
    evaluated = r.counts.evaluated;
    benchmark::DoNotOptimize(r.best);
  }
  const double iters = static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
  state.counters["configs"] = static_cast<double>(evaluated);
  state.counters["ns_per_config"] =
      benchmark::Counter(static_cast<double>(evaluated) * iters * 1e-9,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["allocs_per_sweep"] = static_cast<double>(allocation_count() - allocs0) / iters;
}

void BM_Sweep(benchmark::State& state, const char* scenario) {
  Prepared& p = prepared(scenario, [&] { return load(scenario); });
  run_sweep(state, p, static_cast<unsigned>(state.range(0)));
}

// Building the grid alone (validity and canonical forms of every grid point).
void BM_GridSpace(benchmark::State& state, const char* scenario) {
  Prepared& p = prepared(scenario, [&] { return load(scenario); });
  for (auto _ : state) {
    const GridSpace g(p.session->scenario().sweep, p.session->model(), p.session->machine(),
                      p.session->workload());
    benchmark::DoNotOptimize(g.valid_count());
  }
}

void BM_SweepScaling(benchmark::State& state) {
  const int n_cp = static_cast<int>(state.range(0));
  Prepared& p = prepared("synthetic" + std::to_string(n_cp), [&] { return synthetic(n_cp, 80, 4, 1024); });
  run_sweep(state, p, 2);
}

// unit_size 0: one unit (a size larger than the space).
void BM_SweepUnits(benchmark::State& state) {
  Prepared& p = prepared("synthetic16", [&] { return synthetic(16, 80, 4, 1024); });
  const std::uint64_t unit =
      state.range(0) == 0 ? (std::uint64_t{1} << 62) : static_cast<std::uint64_t>(state.range(0));
  run_sweep(state, p, 2, unit);
}

}  // namespace

BENCHMARK_CAPTURE(BM_Sweep, default, "scenarios/llama3.1-70b-decode-128k.yaml")
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_Sweep, deepseek_v3, "scenarios/deepseek-v3-decode-32k-h200.yaml")
    ->ArgName("threads")
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_GridSpace, default, "scenarios/llama3.1-70b-decode-128k.yaml")
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SweepScaling)
    ->ArgName("n_cp")
    ->Arg(1)
    ->Arg(4)
    ->Arg(16)
    ->Arg(64)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_SweepUnits)
    ->ArgName("unit_size")
    ->Arg(0)
    ->Arg(16384)
    ->Arg(1024)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
