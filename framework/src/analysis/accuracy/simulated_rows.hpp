#pragma once
// `tessera validate-data --simulate` (docs/accuracy.md "Serving rows through the request
// simulator"): a serving row measured by a benchmark client with a stated concurrency (a closed
// loop of N clients: NVIDIA AIPerf / GenAI-Perf `--concurrency`, vLLM and SGLang bench_serving
// `--max-concurrency`) and fixed ISL and OSL is predicted a third time, through the request
// simulator (analysis/requests/request_sim.hpp): N clients, each sending its next request when its
// last one finishes, on the row's configuration, the statistic the row states (mean, P50, P90,
// P99) read from the simulated distribution. Nothing here is fitted; the step times are the
// latency model's, as for the row's other predictions.
#include <cstdint>
#include <memory>
#include <string>

#include "analysis/accuracy/row_plan.hpp"
#include "analysis/accuracy/row_prediction.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "analysis/requests/request_sim.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera::accuracy {

// The simulated engine's iteration token budget, chunked prefill on: the rows state none;
// TensorRT-LLM's engine build default `max_num_tokens` (BuildConfig) and vLLM V1's online
// serving default `max_num_batched_tokens` are both 8192.
inline constexpr std::int64_t kSimulatedTokenBudget = 8192;

// "" when the row goes through the request simulator, else why not. A row must be mapped, state
// its concurrency (batch), ISL and OSL, measure a request-level quantity (TTFT, TPOT, ITL, E2E,
// output or request throughput; a `_pNN` suffix names the percentile) and say in its notes or
// locator that it ran at a fixed concurrency of clients ("concurrency"), not as a static batch.
TESSERA_API std::string simulated_row_reason(const DataRow& row, const RowPlan& plan);

// A row measured under a request rate (its notes name `target_qps` or an offered load) that the
// simulator cannot run: why ("" when the row names no rate).
TESSERA_API std::string rate_row_reason(const DataRow& row);

// The row's notes or locator state a concurrency of clients or a request rate.
TESSERA_API bool states_load(const DataRow& row);

// The concurrency of clients the notes or locator state ("concurrency of 25", "Concurrency 25",
// "--max-concurrency 64"), -1 if none; "batch size (concurrency)": the row's batch, or -2 when the
// batch is blank.
TESSERA_API long long stated_concurrency(const DataRow& row);

struct SimulatedRow {
  std::string statistic;          // "mean", "p50", "p90", "p99"; "rate" for a throughput
  bool statistic_stated = false;  // false: the row does not say mean or median (scored as mean)
  double predicted = 0;           // the row's unit
  double p50 = 0;                 // the simulated P50 beside (latency rows; 0 for a throughput)
  std::int64_t clients = 0;       // the closed loop's N (all replicas)
  std::uint64_t requests = 0, warmup = 0;
  std::int64_t kv_blocks = 0, block_tokens = 0;
  std::int64_t preemptions = 0;
};

// The index of a statistic ("p50", "p90", "p99") in requests::kPercentiles, -1 for any other.
TESSERA_API int percentile_index(const std::string& statistic);

// The simulator's options for a row's replicas: `dp` replicas of at most `max_sequences` running,
// `token_budget` tokens per iteration with chunked prefill, `kv_blocks` blocks of `block_tokens`.
TESSERA_API requests::SimOptions row_sim_options(std::int64_t max_sequences, std::int64_t token_budget,
                                                 std::int64_t kv_blocks, std::int64_t block_tokens,
                                                 std::int64_t dp, bool exact);

// Requests simulated for a closed loop of `clients`: 2·N warm-up (the loop's start, every client
// sending at once, and one full turn after it) and max(500, 8·N) measured.
TESSERA_API std::uint64_t simulated_warmup(std::int64_t clients);
TESSERA_API std::uint64_t simulated_requests(std::int64_t clients);

// The row through the request simulator. Throws Error with the reason when it cannot run (an
// invalid configuration, a request longer than the replica's KV).
TESSERA_API SimulatedRow simulate_serving_row(const PreparedRow& row,
                                              const std::shared_ptr<const LatencyModel>& latency,
                                              const ParamSet& efficiency,
                                              const std::shared_ptr<const MemoryModel>& memory);

}  // namespace tessera::accuracy
