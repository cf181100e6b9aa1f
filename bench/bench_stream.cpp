// Peak memory of a streaming sweep of 10^7 configurations without --csv: the synthetic grid
// of bench_common.hpp (Llama-3.1-70B decode on an enlarged cube-sip machine, cp 1..1024,
// tp {1..64}, pp 1..80, dp 1..4, every discrete knob): 1.24·10^7 valid canonical
// configurations, searched exhaustively on 2 threads with the default SearchOptions (no
// per-configuration records kept). Runs alone in its process: VmHWM is the process's peak.
// Counters: configs (evaluated), valid, peak_rss_MB (VmHWM after the sweep, everything
// included: libraries, plugins, the grid, the driver), base_rss_MB (VmRSS before the grid is
// built), peak_reset (1 when the peak was reset to the base before the sweep).
#include <benchmark/benchmark.h>

#include <cstdlib>

#include "bench_common.hpp"

using namespace tessera;
using namespace tessera::bench;

namespace {

// cp over 1..1024 on 2048 systems (262144 PEs): 1.65·10^8 grid points, 1.24·10^7 valid
// canonical configurations. TESSERA_BENCH_STREAM_NCP and TESSERA_BENCH_STREAM_SYSTEMS change
// the size (docs/performance.md: how memory grows with it).
int env_int(const char* name, int fallback) {
  const char* s = std::getenv(name);
  return s ? std::atoi(s) : fallback;
}

void BM_Stream(benchmark::State& state) {
  const Scenario sc = synthetic(env_int("TESSERA_BENCH_STREAM_NCP", 1024), 80, 4,
                                env_int("TESSERA_BENCH_STREAM_SYSTEMS", 2048));
  Session session(sc, registry());
  const auto strategy = registry().create_search(sc.plugins.search);
  SearchOptions o;
  o.threads = 2;
  const double base = proc_status_bytes("VmRSS");
  const bool reset = reset_peak_rss();
  SearchResult r;
  for (auto _ : state) {
    r = run_search(session, *strategy, o);
    benchmark::DoNotOptimize(r.best);
  }
  state.counters["configs"] = static_cast<double>(r.counts.evaluated);
  state.counters["valid"] = static_cast<double>(r.counts.valid);
  state.counters["feasible"] = static_cast<double>(r.counts.feasible);
  state.counters["pareto"] = static_cast<double>(r.pareto.size());
  state.counters["records_kept"] = static_cast<double>(r.records.size());
  state.counters["base_rss_MB"] = base / 1e6;
  state.counters["peak_rss_MB"] = proc_status_bytes("VmHWM") / 1e6;
  state.counters["peak_reset"] = reset ? 1 : 0;
}

}  // namespace

BENCHMARK(BM_Stream)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1);
