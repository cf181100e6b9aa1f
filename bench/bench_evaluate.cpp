// Single-configuration evaluation through the real plugins (the scenario's latency, memory
// and objective plugins, loaded by a PluginRegistry from this build tree): layout and
// validity, memory, the step's stages and their timing, the totals and every objective.
//
//  BM_Evaluate/<model>        round robin over the scenario's valid canonical configurations,
//                             in the grid's order (as an exhaustive sweep meets them, the layout
//                             memo reusing placements), one evaluation per iteration; 5
//                             repetitions, the median reported.
//                             Counter allocs_per_config: heap allocations per evaluation (0).
//  BM_EvaluateMedian/<model>  per configuration: the fastest of 5 rounds of 64 evaluations,
//                             each with the layout memo cleared (the cost of a configuration
//                             whose placement was not met before: no reuse); counters
//                             median_ns (the figure), mean_ns, p90_ns, max_ns over
//                             the configurations.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>

#include "bench_common.hpp"

using namespace tessera;
using namespace tessera::bench;

namespace {

Prepared& prepared(const std::string& scenario) {
  static std::map<std::string, std::unique_ptr<Prepared>> cache;
  auto& p = cache[scenario];
  if (!p) p = std::make_unique<Prepared>(load(scenario));
  return *p;
}

void BM_Evaluate(benchmark::State& state, const char* scenario) {
  Prepared& p = prepared(scenario);
  const auto& configs = p.space->valid_configs();
  const Evaluator& ev = p.session->evaluator();
  Evaluation e;
  for (const auto& c : configs) ev.evaluate(c, e);  // warm the buffers and the caches
  std::size_t i = 0;
  const std::uint64_t allocs0 = allocation_count();
  for (auto _ : state) {
    ev.evaluate(configs[i], e);
    benchmark::DoNotOptimize(e.totals.latency_s);
    benchmark::DoNotOptimize(e.objectives);
    if (++i == configs.size()) i = 0;
  }
  const std::uint64_t allocs = allocation_count() - allocs0;
  state.counters["allocs_per_config"] = benchmark::Counter(
      static_cast<double>(allocs) / static_cast<double>(std::max<std::int64_t>(1, state.iterations())));
  state.counters["configs"] = static_cast<double>(configs.size());
}

void BM_EvaluateMedian(benchmark::State& state, const char* scenario) {
  Prepared& p = prepared(scenario);
  const auto& configs = p.space->valid_configs();
  const Evaluator& ev = p.session->evaluator();
  Evaluation e;
  constexpr int kRounds = 5, kReps = 64;
  std::vector<double> per(configs.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < configs.size(); ++i) {
      double best = 1e30;
      for (int r = 0; r < kRounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        for (int k = 0; k < kReps; ++k) {
          e.clear_memos();  // no reuse of layouts or collectives: the cost of a configuration met first
          ev.evaluate(configs[i], e);
          benchmark::DoNotOptimize(e.objectives);
        }
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / kReps);
      }
      per[i] = best;
    }
  }
  std::vector<double> sorted = per;
  std::sort(sorted.begin(), sorted.end());
  const auto at = [&](double q) {
    return sorted[static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1))];
  };
  double mean = 0;
  for (double v : sorted) mean += v;
  mean /= static_cast<double>(sorted.size());
  state.counters["median_ns"] = at(0.5);
  state.counters["mean_ns"] = mean;
  state.counters["p90_ns"] = at(0.9);
  state.counters["max_ns"] = sorted.back();
  state.counters["configs"] = static_cast<double>(configs.size());
}

constexpr const char* kLlama = "scenarios/llama3.1-70b-decode-128k.yaml";  // the default scenario
// The same model under `calibrated` on DGX H100: the yardstick of the scenarios below, which run
// `calibrated` too (the default scenario runs `overlap`, a cheaper latency model).
constexpr const char* kLlamaH100 = "scenarios/llama3.1-70b-decode-4k-h100.yaml";
constexpr const char* kDeepSeek = "scenarios/deepseek-v3-decode-32k-h200.yaml";
// Layer kinds (physics.md §3): sliding and full layers, 128 experts, one H100 (one configuration).
constexpr const char* kGptOss = "scenarios/gpt-oss-120b-decode-32k-h100.yaml";
// Recurrent layers (physics.md §3): 36 Gated DeltaNet and 12 gated-attention layers, 512 experts.
constexpr const char* kQwen3Next = "scenarios/qwen3-next-decode-256k-h200.yaml";

}  // namespace

BENCHMARK_CAPTURE(BM_Evaluate, llama3_70b, kLlama)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_Evaluate, llama3_70b_h100, kLlamaH100)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_Evaluate, deepseek_v3, kDeepSeek)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_Evaluate, gpt_oss_120b, kGptOss)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_Evaluate, qwen3_next, kQwen3Next)->Repetitions(5)->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(BM_EvaluateMedian, llama3_70b, kLlama)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_EvaluateMedian, deepseek_v3, kDeepSeek)->Iterations(1)->Unit(benchmark::kMillisecond);
