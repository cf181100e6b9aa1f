#pragma once
// Mapping a measured row to what Tessera predicts for it: the model and machine files, dtypes,
// parallel configuration, serving framework and quantity, through the alias table; a row that
// cannot be mapped carries the reason. docs/accuracy.md describes every mapping rule.
#include <cstdint>
#include <string>

#include "analysis/measurements/alias_table.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "analysis/serving/max_throughput.hpp"
#include "scenario/serving_stacks/stack_profile.hpp"
#include "tessera/dtype.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/collectives.hpp"

namespace tessera::accuracy {

// The latency metrics of measurements.csv's README (the acceptance set).
TESSERA_API bool is_latency_metric(const std::string& metric);

// Short display label of a source ("NVIDIA TensorRT-LLM docs", "Splitwise").
TESSERA_API std::string source_label(const std::string& source);

enum class Measure : std::uint8_t {
  prefill,        // TTFT / prefill latency: the prefill of input_len tokens
  decode_step,    // one decode step at context input_len + output_len/2
  request,        // prefill + (output_len - 1) decode steps with growing context
  op_stage,       // one stage of one layer, timed alone
  gemm,           // one GEMM M x K x N
  copy,           // one device-to-device copy
  collective,     // one collective call timed alone (docs/accuracy.md "Collectives")
  offline_bound,  // MLPerf Offline: the decode-throughput ceiling at the largest batch that fits
  full_load,      // a throughput at full load, no batch stated: the best over the batches the engine
                  // admits (serve --max-throughput's question; docs/accuracy.md "Full-load rows")
  under_load,     // under a request rate, or a percentile: the request simulator's answer
                  // (analysis/accuracy/load_rows.hpp; docs/accuracy.md "Rows under a load")
};
enum class Derived : std::uint8_t {
  time,                 // the measured time itself
  tokens_per_s,         // B·dp·output_len / e2e
  tokens_per_s_per_pe,  // the same / n_devices
  requests_per_s,       // B·dp / e2e
  time_per_token,       // e2e / (B·output_len)
  busbw,                // all-reduce bus bandwidth msg_bytes / t · 2(n-1)/n
  flop_rate,            // kernel_tflops: 2·M·N·K (· groups) / t
  per_user_rate,        // decode_tok_s_per_user: 1 / TPOT
  mfu,                  // the step's useful FLOPs / (dense peak · PEs · t), in %
  phase_tokens_per_s,   // one phase alone (disaggregated rows): prefill B·dp·ISL / TTFT or decode
                        // B·dp / step, per device × RowPlan::devices_per_unit
};

// The collective row groups, each with its own median (docs/accuracy.md "Collectives").
// The four groups docs/accuracy.md reports: a group inside one unit of the machine's first level
// (a node) or spanning several (across nodes); kGroupAllReduce / kGroupMoE are the plan's
// placeholders until prepare_row knows the machine.
inline constexpr const char* kGroupAllReduce = "all-reduce in a node";
inline constexpr const char* kGroupAllReduceAcross = "all-reduce across nodes";
inline constexpr const char* kGroupMoE = "all-to-all in a node";
inline constexpr const char* kGroupMoEAcross = "all-to-all across nodes";
inline constexpr const char* kGroupMoEAmbiguous = "MoE, hardware ambiguous";

// A collective row's collective: all-reduce bytes from msg_bytes; all-to-all bytes computed
// from the model (hidden, top_k) by prepare_row.
struct CollectivePlan {
  CommKind kind = CommKind::none;
  std::int64_t ranks = 1;
  double bytes = 0;                   // M per rank (all-to-all: filled by prepare_row)
  std::uint32_t algorithms = 0;       // allowed on the level (0: the machine file's set)
  std::string algorithm_note;         // the NCCL algorithm the notes force ("" = none)
  double tokens = 0;                  // all-to-all: tokens per rank
  double payload_bytes = 0;           // all-to-all: bytes per element of the payload format
  double stated_bytes_per_token = 0;  // all-to-all: the notes' figure (0 = not stated)
  std::string group;                  // kGroup*
  bool apart = false;                 // reported apart: in no median
};

struct RowPlan {
  bool mapped = false;
  std::string reason;  // why not mapped
  std::string model_file, machine_file, framework;
  // The framework's version as the software column states it ("0.5", "0.7a", "main"; "" when
  // not stated): latency/calibrated picks the profile whose version range holds it.
  std::string framework_version;
  DTypes dtype;
  ParallelConfig config;
  std::int64_t n_devices = 1;
  std::int64_t batch = 1;  // sequences per DP replica
  std::int64_t input = 0, output = 0;
  Measure measure = Measure::prefill;
  Derived derived = Derived::time;
  std::string stage;          // op_stage: the Tessera stage
  double stage_fraction = 1;  // op_stage: the row's share of that stage (Q_mul_K: 1/2)
  bool stage_decode = true;   // op_stage: a decode step (else a prefill)
  double gemm_m = 0, gemm_n = 0, gemm_k = 0;
  double gemm_groups = 1;  // grouped GEMM: `groups` GEMMs of gemm_m x gemm_n x gemm_k, each its own weights
  double copy_bytes = 0;   // bytes copied (read once, written once)
  CollectivePlan collective;    // measure == collective
  double to_unit = 1;           // SI value × to_unit = the row's unit
  double devices_per_unit = 1;  // phase_tokens_per_s: 1 per GPU, 8 per node
  double measured = 0;          // the row's value
  // A bound, not an estimate (MLPerf Offline): reported in its own group, in no median.
  bool bound = false;
  // full_load: the KV rule of the row's framework (its version nearest the row's; rule none: the
  // memory model's conservative budget) and which version it is ("tensorrt-llm@1.1", or "").
  EngineKv engine_kv;
  std::string engine_label;
  std::int64_t engine_max_batch = 0;  // the version's cap on sequences (0: none)
  std::string group;                  // non-collective rows reported in a group of their own ("" = none)
  // under_load: the request stream (analysis/accuracy/load_rows.hpp).
  double rate_per_s = 0;           // Poisson arrivals, all replicas (0: a closed loop of batch·dp clients)
  std::string statistic = "mean";  // of the simulated requests: "mean", "p50", "p90", "p99"
  // What is read from the simulation: "ttft", "tpot", "itl", "e2e", "tokens" (output tokens/s),
  // "requests" (requests/s), "capacity" (output tokens/s at the largest rate within the limits).
  std::string load_metric;
  double limit_ttft_p99_s = 0, limit_tpot_p99_s = 0;  // capacity: MLPerf Server's limits
  std::int64_t max_sequences = 0;  // per replica: the notes' cap, else the engine's default, else 1024
  std::int64_t token_budget = 0;   // the notes' batched-token limit (0: kSimulatedTokenBudget, 8192)
  std::string lengths_from;        // "" (the row's ISL and OSL) or the dataset rule that gave the means
};

// Rows reported apart, in a group of their own (docs/accuracy.md "How a row is mapped").
inline constexpr const char* kGroupOfflineBound = "MLPerf Offline bound";
inline constexpr const char* kGroupFullLoad = "full load (max throughput)";
inline constexpr const char* kGroupUnderLoad = "under a load (request simulator)";

TESSERA_API RowPlan plan_row(const DataRow& row, const Aliases& aliases, const std::string& data_root);

}  // namespace tessera::accuracy
