// Joint hardware x parallelism exploration, as `tessera explore` runs it: for every point of
// a 4-knob x 5-value hardware grid (625 machines) a session on the changed machine, the
// exhaustive search of the default scenario's parallelism sweep on 2 threads, and the cost of
// the best configuration (objective/cost). Wall time of the whole grid; counter configs: the
// configurations evaluated in all.
//   machine.pe.hbm.bandwidth      0.5, 1, 2, 4, 8 TB/s
//   machine.levels.cube.link_bw   100, 200, 400, 800, 1600 GB/s
//   machine.pe.flops.bf16         32, 64, 128, 256, 512 TFLOP/s
//   machine.pe.hbm.capacity       8, 16, 32, 64, 128 GB
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>

#include "bench_common.hpp"

using namespace tessera;
using namespace tessera::bench;

namespace {

struct Axis {
  const char* path;
  std::array<double, 5> values;
};

const std::array<Axis, 4> kAxes{{
    {"machine.pe.hbm.bandwidth", {0.5e12, 1e12, 2e12, 4e12, 8e12}},
    {"machine.levels.cube.link_bw", {100e9, 200e9, 400e9, 800e9, 1600e9}},
    {"machine.pe.flops.bf16", {32e12, 64e12, 128e12, 256e12, 512e12}},
    {"machine.pe.hbm.capacity", {8e9, 16e9, 32e9, 64e9, 128e9}},
}};

void BM_Explore(benchmark::State& state) {
  static Prepared base(load("scenarios/llama3.1-70b-decode-128k.yaml"));
  const auto strategy = registry().create_search(base.scenario.plugins.search);
  PluginChoice cost_choice;
  cost_choice.name = "cost";
  const auto cost = registry().create_objective(cost_choice);
  SearchOptions o;
  o.threads = 2;
  o.top = 1;
  std::uint64_t configs = 0, feasible_points = 0, points = 0;
  double cost_sum = 0;
  for (auto _ : state) {
    configs = feasible_points = points = 0;
    cost_sum = 0;
    Evaluation scratch;
    for (int i = 0; i < 625; ++i) {
      MachineSpec m = base.session->machine();
      int rest = i;
      for (const Axis& a : kAxes) {
        set_machine_field(m, a.path, a.values[static_cast<std::size_t>(rest % 5)]);
        rest /= 5;
      }
      const auto s = base.session->with_machine(m);
      const SearchResult r = run_search(*s, *strategy, o);
      configs += r.counts.evaluated;
      ++points;
      if (r.best) {
        ++feasible_points;
        const ParallelConfig& best = r.records[*r.best].config;
        s->evaluator().evaluate(best, scratch);
        cost_sum += cost->evaluate(
            s->context(), s->evaluator().workload(), best,
            EvaluatedStep{.stages = scratch.stages, .totals = scratch.totals, .memory = scratch.memory});
      }
    }
    benchmark::DoNotOptimize(cost_sum);
  }
  state.counters["points"] = static_cast<double>(points);
  state.counters["feasible_points"] = static_cast<double>(feasible_points);
  state.counters["configs"] = static_cast<double>(configs);
}

}  // namespace

BENCHMARK(BM_Explore)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1);
