// The request simulator (framework/src/analysis/requests/, docs/physics.md §12.5) on issue 37's
// figure: 10,000 requests of Llama-3.1-70B 4K/1K on TP8 H100 (scenarios/llama3.1-70b-serve-4k1k-
// h100.yaml, serving point B 64, budget 8K), one thread:
//  BM_RequestSim/rate:R    Poisson arrivals at R requests/s (x 0.1: 0.5 and 2 requests/s are
//                          light and busy loads; 5 overloads the replica); counters iterations,
//                          shapes (distinct step shapes timed) and ns_per_iteration. Cold: each
//                          run builds its own step memo, as a study's unit does.
#include <benchmark/benchmark.h>

#include "analysis/requests/configuration_sim.hpp"
#include "bench_common.hpp"

using namespace tessera;
using namespace tessera::bench;

namespace {

void BM_RequestSim(benchmark::State& state) {
  static Prepared p(load("scenarios/llama3.1-70b-serve-4k1k-h100.yaml"));
  RequestsSpec spec;
  spec.given = true;
  spec.stream.arrival.rate_per_s = static_cast<double>(state.range(0)) * 0.1;
  spec.stream.requests = 10000;
  spec.stream.warmup = 1000;
  spec.stream.input.value = 4096;
  spec.stream.output.value = 1024;
  ParallelConfig c;
  c.tp = 8;
  requests::SimResult r;
  for (auto _ : state) {
    r = requests::simulate_configuration(*p.session, c, ServingPoint{64, 8192}, spec);
    benchmark::DoNotOptimize(r.ttft.percentile);
  }
  state.counters["iterations"] = static_cast<double>(r.iterations);
  state.counters["shapes"] = static_cast<double>(r.step_shapes);
  state.counters["ns_per_iteration"] =
      benchmark::Counter(static_cast<double>(r.iterations) * 1e-9 * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_RequestSim)->ArgName("rate")->Arg(5)->Arg(20)->Arg(50)->Unit(benchmark::kMillisecond);
