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
// And a scheduler plugin's cost (docs/performance.md "Scheduler plugins"):
//  BM_SchedulerPolicy/policy:P  the same stream through one replica whose iterations all take
//                          20 ms (a constant timer: the host's scheduling work alone shows),
//                          P 0 = the built-in vLLM rules, 1 = the same rules written as a
//                          SchedulerPolicy (the decision through the interface, checked and
//                          applied by the host); counter ns_per_iteration. The acceptance: P 1
//                          at most 2x P 0.
//  BM_CapacitySearch/threads:T   the whole serve (study, best point simulated, 20 capacity
//                          searches of 5,000+ measured requests a probe); counters probes,
//                          requests (measured, all probes) and probes_per_finalist.
#include <benchmark/benchmark.h>

#include "analysis/capacity/configuration_sim.hpp"
#include "bench_common.hpp"
#include "fcfs_policy.hpp"
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

class ConstantSteps final : public StepTimer {
 public:
  double decode_step(std::int64_t, double) override { return 0.020; }
  double decode_iteration(std::int64_t, double) override { return 0.020; }
  double prefill(std::int64_t, std::int64_t, std::int64_t) override { return 0.020; }
  double prefill_chunk(std::int64_t, std::int64_t, bool) override { return 0.020; }
  double mixed_step(std::int64_t, double, std::int64_t, std::int64_t, std::int64_t, bool) override {
    return 0.020;
  }
  double verify_step(std::int64_t, double, std::int64_t) override { return 0.020; }
  double draft_step(std::int64_t, double) override { return 0.002; }
  bool kv_fits(std::int64_t, std::int64_t) override { return true; }
};

void BM_SchedulerPolicy(benchmark::State& state) {
  requests::StreamSpec s;
  s.arrival.rate_per_s = 50;  // ~64 running at 20 ms an iteration and ~64 tokens out each
  s.input.kind = requests::LengthKind::uniform;
  s.input.min = 256;
  s.input.max = 4096;
  s.output.kind = requests::LengthKind::uniform;
  s.output.min = 16;
  s.output.max = 112;
  s.requests = 20000;
  s.warmup = 2000;
  requests::SimOptions o;
  o.limits.max_sequences = 256;
  o.limits.token_budget = 8192;
  o.limits.kv_blocks = 1 << 20;
  const test::FcfsPolicy fcfs;
  if (state.range(0) == 1) o.limits.policy = &fcfs;
  ConstantSteps timer;
  requests::SimResult r;
  for (auto _ : state) {
    r = requests::simulate(s, timer, o);
    benchmark::DoNotOptimize(r.ttft.percentile);
  }
  state.counters["iterations"] = static_cast<double>(r.iterations);
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
BENCHMARK(BM_SchedulerPolicy)->ArgName("policy")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RequestSim)->ArgName("rate")->Arg(5)->Arg(20)->Arg(50)->Unit(benchmark::kMillisecond);
