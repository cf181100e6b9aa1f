#pragma once
// validate-data's rows measured under a load that only the request simulator takes
// (docs/accuracy.md "Rows under a load"): a row measured under Poisson arrivals at a stated rate
// (MLPerf Server's `target_qps`, a benchmark client's `request_rate=`), a percentile (P50, P90,
// P99) at a stated rate or concurrency, and MLPerf Server's throughput — the largest Poisson rate
// whose P99 TTFT and P99 TPOT stay within the round's limits, at which the row's engine completes
// its tokens/s. Each is predicted by simulating the row's request stream on its configuration
// (analysis/requests/request_sim.hpp): its engine's KV rule, sequence cap and batched-token limit
// (the notes' where they state them),
// its lengths fixed at the stated ISL and OSL (or at a dataset's published means, data/aliases.yaml
// `datasets:`). Nothing here is fitted; the step times are the latency model's.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "analysis/measurement_csv.hpp"
#include "analysis/row_plan.hpp"
#include "analysis/row_prediction.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera::validation {

// The cap on running sequences of a row whose notes and engine state none (vLLM V1's default
// `max_num_seqs`).
inline constexpr std::int64_t kLoadRowDefaultSequences = 1024;

// The request rate (requests/s, all replicas) the notes state: `target_qps 39.6` (MLPerf loadgen),
// `request_rate=10`, "request rate of 10 req/s" (or qps), "100 samples/s offered load"; nullopt
// when none.
TESSERA_API std::optional<double> stated_request_rate(const std::string& notes);

// The MLPerf Server latency limits the notes state (`ttft_latency 2000000000 ns`, `tpot_latency
// 200 ms`; ns, us, ms or s): seconds, 0 when not stated.
struct ServerLimits {
  double ttft_p99_s = 0, tpot_p99_s = 0;
};
TESSERA_API ServerLimits stated_server_limits(const std::string& notes);

// The engine's cap on running sequences the notes state (MLPerf's `gpu_batch_size={'llama2-70b':
// 896}`, vLLM's `max_num_seqs=650`, `max_num_seqs: 650` or its flag `--max-num-seqs 650`), 0 when
// none.
TESSERA_API std::int64_t stated_sequence_cap(const std::string& notes);

// The engine's batched-token limit the notes state (`max_num_batched_tokens=40960`, `: 40960`,
// `--max-num-batched-tokens 512`), 0 when none.
TESSERA_API std::int64_t stated_token_budget(const std::string& notes);

// Requests of a load row's simulation: a warm-up of a tenth, then at least 2,000 measured (4,000
// for a percentile).
TESSERA_API std::uint64_t load_row_requests(const std::string& statistic);

// What a load row's prediction reports beside its value.
struct LoadAnswer {
  double value = 0;                // the row's unit
  double rate_per_s = 0;           // the simulated load (capacity: the largest that met the limits)
  std::int64_t clients = 0;        // a closed loop's clients (0: an open loop)
  std::int64_t max_sequences = 0;  // per replica
  std::int64_t token_budget = 0;   // tokens per iteration
  std::int64_t kv_blocks = 0, block_tokens = 0;
  std::uint64_t measured = 0;  // requests measured (capacity: at the reported load)
  std::size_t probes = 0;      // capacity: simulations run
};

// The row through the request simulator (plan.measure == Measure::under_load). Throws Error with
// the reason when it cannot run (an invalid configuration, a request longer than the replica's
// KV, a capacity search that met no load).
TESSERA_API LoadAnswer predict_load_row(const PreparedRow& row,
                                        const std::shared_ptr<const LatencyModel>& latency,
                                        const ParamSet& efficiency,
                                        const std::shared_ptr<const MemoryModel>& memory);

}  // namespace tessera::validation
