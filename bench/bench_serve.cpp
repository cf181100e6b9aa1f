// The serving study (`tessera serve`, framework/src/analysis/serving/serve_study.hpp) through the real
// plugins, on the Mixtral-8x7B serving scenario (scenarios/mixtral-8x7b-serve-h100.yaml: TP, PP,
// DP, EP within 64 H100 x batch 1..512 (powers of 2) x two token budgets):
//  BM_Serve/mixtral/threads:N        the whole study, GridSpace and budget filter included, wall
//                                    time; the figure is threads:2 (docs/performance.md
//                                    "Serving study"). Warm: the process's MoE-load memo is
//                                    filled by the first iteration (the cold figure is
//                                    `tessera serve`'s wall time, measured in the doc).
//  BM_ServeScaling/batches:n/budgets:m   the first n batches of the scenario's list x m token
//                                    budgets (2K, 8K, 4K, 16K), 2 threads: counters points and
//                                    us_per_point show how the cost grows with the two lists.
//  BM_Disagg/<scenario>              the disaggregated study alone (analysis/serving/disagg_study.hpp:
//                                    pools, Pareto filter, pairing; x, y <= 8) on the Llama-3.1-70B
//                                    (<= 64 H100) and DeepSeek-V3 (<= 128 H200) disaggregated
//                                    scenarios; counters pairs and within_slo. The target
//                                    is <= 2 s for the Llama one (docs/performance.md).
#include <benchmark/benchmark.h>

#include <functional>
#include <map>

#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "bench_common.hpp"

using namespace tessera;
using namespace tessera::bench;

namespace {

constexpr const char* kScenario = "scenarios/mixtral-8x7b-serve-h100.yaml";

Prepared& prepared(const std::string& key, const std::function<Scenario()>& make) {
  static std::map<std::string, std::unique_ptr<Prepared>> cache;
  auto& p = cache[key];
  if (!p) p = std::make_unique<Prepared>(make());
  return *p;
}

void run_study(benchmark::State& state, Prepared& p, unsigned threads) {
  ServeStudyOptions o;
  o.threads = threads;
  ServeCounts counts;
  for (auto _ : state) {
    const ServeResult r = run_serve_study(*p.session, o);
    counts = r.counts;
    benchmark::DoNotOptimize(r.best());
  }
  const double iters = static_cast<double>(std::max<std::int64_t>(1, state.iterations()));
  state.counters["configs"] = static_cast<double>(counts.configurations - counts.over_budget);
  state.counters["points"] = static_cast<double>(counts.evaluated);
  state.counters["within_slo"] = static_cast<double>(counts.within_slo);
  state.counters["us_per_point"] =
      benchmark::Counter(static_cast<double>(counts.evaluated) * iters * 1e-6,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_Serve(benchmark::State& state) {
  Prepared& p = prepared("mixtral", [] { return load(kScenario); });
  run_study(state, p, static_cast<unsigned>(state.range(0)));
}

void BM_ServeScaling(benchmark::State& state) {
  const auto batches = static_cast<std::size_t>(state.range(0));
  const auto budgets = static_cast<std::size_t>(state.range(1));
  const std::string key = "mixtral-" + std::to_string(batches) + "x" + std::to_string(budgets);
  Prepared& p = prepared(key, [&] {
    Scenario s = load(kScenario);
    s.sweep.serving_batch.resize(std::min(batches, s.sweep.serving_batch.size()));
    const std::vector<std::int64_t> all{2048, 8192, 4096, 16384};
    s.sweep.serving_token_budget.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(budgets));
    return s;
  });
  run_study(state, p, 2);
}

constexpr const char* kDisaggScenarios[] = {"scenarios/llama3.1-70b-serve-4k1k-h100-disagg.yaml",
                                            "scenarios/deepseek-v3-serve-h200-disagg.yaml"};

void BM_Disagg(benchmark::State& state) {
  const char* file = kDisaggScenarios[state.range(0)];
  Prepared& p = prepared(file, [&] { return load(file); });
  DisaggCounts counts;
  for (auto _ : state) {
    const DisaggStudy s = run_disagg_study(*p.session);
    counts = s.result.counts;
    benchmark::DoNotOptimize(s.result.best);
  }
  state.SetLabel(file);
  state.counters["pairs"] = static_cast<double>(counts.pairs);
  state.counters["within_slo"] = static_cast<double>(counts.within_slo);
}

}  // namespace

BENCHMARK(BM_Disagg)->ArgName("scenario")->Arg(0)->Arg(1)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Serve)
    ->ArgName("threads")
    ->Arg(1)
    ->Arg(2)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_ServeScaling)
    ->ArgNames({"batches", "budgets"})
    ->Args({1, 2})
    ->Args({4, 2})
    ->Args({10, 2})
    ->Args({10, 1})
    ->Args({10, 4})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
