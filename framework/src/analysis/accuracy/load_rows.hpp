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
#include <map>
#include <memory>
#include <optional>
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

// The requests of a load row's simulation. The engine holds up to C = max_sequences x dp requests
// at once: a stream that starts inside that room and is too short to overflow it would meet any
// latency target at any rate. So an open loop is a warm-up of max(C, a tenth of the measured) —
// the engine filled — then max(2C, 2,000) measured (4,000 for a percentile): at a rate a few
// percent above what the engine sustains, the queue grown over 2C requests costs a tenth of an
// end-to-end latency or more, which the P99 limits see. A closed loop of N clients: a warm-up of
// 2N, then max(2N, 2,000 or 4,000) measured.
struct LoadStream {
  std::uint64_t warmup = 0, measured = 0;
};
TESSERA_API LoadStream load_row_stream(const RowPlan& plan);

// The most requests one load row may simulate (warm-up and measured); a row that needs more is
// listed with the reason. The largest request rate and closed loop accepted are the request
// scenarios' (serving.requests: rate 1e9 /s, concurrency 1e6 clients).
inline constexpr std::uint64_t kLoadRowMaxRequests = 1'000'000;
inline constexpr double kLoadRowMaxRate = 1e9;
inline constexpr std::int64_t kLoadRowMaxClients = 1'000'000;

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

// Simulations shared by the rows of one stream — an MLPerf run's TTFT and TPOT rows, its 99 % and
// 99.9 % accuracy targets — for one latency model: keyed by everything a simulation reads
// (load_stream_key).
struct LoadCache {
  std::map<std::string, std::pair<LoadAnswer, requests::SimResult>> streams;
  std::map<std::string, LoadAnswer> capacities;
};

// What a load row's simulation reads: model and machine files, framework and engine rule, dtypes,
// configuration, lengths, load, engine limits, and for a capacity its limits.
TESSERA_API std::string load_stream_key(const PreparedRow& row);

// The row through the request simulator (plan.measure == Measure::under_load), reusing `cache`'s
// simulation of the same stream when it has one. Throws Error with the reason when it cannot run
// (an invalid configuration, a request longer than the replica's KV, a capacity search that met
// no load or no limit).
TESSERA_API LoadAnswer predict_load_row(const PreparedRow& row,
                                        const std::shared_ptr<const LatencyModel>& latency,
                                        const ParamSet& efficiency,
                                        const std::shared_ptr<const MemoryModel>& memory,
                                        LoadCache* cache = nullptr);

}  // namespace tessera::accuracy
