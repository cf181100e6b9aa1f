// The request simulator (framework/src/analysis/requests/, docs/physics.md §12.5) on its target
// figure: 10,000 requests of Llama-3.1-70B 4K/1K on TP8 H100 (scenarios/llama3.1-70b-serve-4k1k-
// h100.yaml, serving point B 64, budget 8K), one thread:
//  BM_RequestSim/rate:R    Poisson arrivals at R requests/s (x 0.1: 0.5 and 2 requests/s are
//                          light and busy loads; 5 overloads the replica); counters iterations,
//                          shapes (distinct step shapes timed) and ns_per_iteration. Cold: each
//                          run builds its own step memo, as a study's unit does.
// And the capacity search's (docs/performance.md "Capacity search"): `tessera serve
// scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml` with the analytical top 20 searched for
// their capacity (docs/physics.md §12.6), through the façade:
//  BM_CapacitySearch/threads:T   the whole serve (study, best point simulated, 20 capacity
//                          searches of 5,000+ measured requests a probe); counters probes,
//                          requests (measured, all probes) and probes_per_finalist.
#include <benchmark/benchmark.h>

#include "analysis/capacity/configuration_sim.hpp"
#include "bench_common.hpp"
#include "studies/entries/serve_entry.hpp"

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

void BM_CapacitySearch(benchmark::State& state) {
  studies::ScenarioOptions so;
  so.path = std::string(TESSERA_SOURCE_DIR) + "/scenarios/llama3.1-70b-serve-4k1k-h100-poisson.yaml";
  static const studies::StudyContext study(so, {}, studies::StudyKind::serve);
  studies::ServeOptions o;
  o.threads = static_cast<unsigned>(state.range(0));
  o.simulate_top = 20;
  std::uint64_t probes = 0, requests = 0, finalists = 0;
  for (auto _ : state) {
    const studies::ServeStudyResult r = studies::serve(study, o);
    probes = requests = 0;
    finalists = r.capacity ? r.capacity->finalists.size() : 0;
    if (r.capacity)
      for (const requests::Finalist& f : r.capacity->finalists)
        for (const requests::CapacityProbe& p : f.capacity.probes) {
          ++probes;
          requests += p.measured;
        }
    benchmark::DoNotOptimize(probes);
  }
  state.counters["probes"] = static_cast<double>(probes);
  state.counters["requests"] = static_cast<double>(requests);
  state.counters["probes_per_finalist"] = finalists > 0 ? static_cast<double>(probes) / finalists : 0;
}

}  // namespace

BENCHMARK(BM_CapacitySearch)->ArgName("threads")->Arg(1)->Arg(2)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK(BM_RequestSim)->ArgName("rate")->Arg(5)->Arg(20)->Arg(50)->Unit(benchmark::kMillisecond);
