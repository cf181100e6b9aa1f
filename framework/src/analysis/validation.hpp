#pragma once
// `tessera validate-data`: predicts published measurements (rows in the format of
// ../shared/data/measurements.csv) with one or more latency models and reports the error.
//
// A row is mapped to a model file, a machine file, dtypes, a parallel configuration, a serving
// framework and a quantity to predict through the alias table (data/aliases.yaml); a row that
// cannot be mapped carries the reason. docs/accuracy.md describes every mapping rule.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/measurement_csv.hpp"
#include "core/progress.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario.hpp"
#include "tessera/dtype.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/collectives.hpp"

namespace tessera::validation {

// The latency metrics of measurements.csv's README (the acceptance set).
TESSERA_API bool is_latency_metric(const std::string& metric);

// Short display label of a source ("NVIDIA TensorRT-LLM docs", "Splitwise").
TESSERA_API std::string source_label(const std::string& source);

// ---- alias table ----------------------------------------------------------------------
struct AliasRule {
  std::string match;     // case-insensitive substring of the column (models, hardware, software)
  std::string locator;   // frameworks only: also a substring of source_locator ("" = any)
  std::string target;    // model / machine file stem, or framework profile name
  std::string unmapped;  // non-empty: rows matching this rule are not mapped, for this reason
};
struct Aliases {
  std::string file;
  std::vector<AliasRule> models, hardware, frameworks;
};
TESSERA_API Aliases load_aliases(const std::string& path);
// data_root/data/aliases.yaml
TESSERA_API std::string default_aliases_path(const std::string& data_root);

// ---- row plans ------------------------------------------------------------------------
enum class Measure : std::uint8_t {
  prefill,      // TTFT / prefill latency: the prefill of input_len tokens
  decode_step,  // one decode step at context input_len + output_len/2
  request,      // prefill + (output_len - 1) decode steps with growing context
  op_stage,     // one stage of one layer, timed alone
  gemm,         // one GEMM M x K x N
  copy,         // one device-to-device copy
  collective,   // one collective call timed alone (docs/accuracy.md "Collectives")
};
enum class Derived : std::uint8_t {
  time,                 // the measured time itself
  tokens_per_s,         // B·dp·output_len / e2e
  tokens_per_s_per_pe,  // the same / n_devices
  requests_per_s,       // B·dp / e2e
  time_per_token,       // e2e / (B·output_len)
  busbw,                // all-reduce bus bandwidth msg_bytes / t · 2(n-1)/n
};

// The collective row groups, each with its own median (docs/accuracy.md "Collectives").
inline constexpr const char* kGroupAllReduce = "all-reduce busbw";
inline constexpr const char* kGroupMoE = "MoE dispatch/combine";
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
  double copy_bytes = 0;      // bytes copied (read once, written once)
  CollectivePlan collective;  // measure == collective
  double to_unit = 1;         // SI value × to_unit = the row's unit
  double measured = 0;        // the row's value
};

TESSERA_API RowPlan plan_row(const DataRow& row, const Aliases& aliases, const std::string& data_root);

// A mapped row with its model and machine loaded (once), ready to predict many times.
struct PreparedRow {
  const DataRow* row = nullptr;
  RowPlan plan;
  ModelSpec model;                       // dtypes applied
  MachineSpec machine;                   // efficiency left empty: the caller supplies it
  std::vector<RawParam> efficiency_raw;  // the machine file's `efficiency:` block as written
};
TESSERA_API PreparedRow prepare_row(const DataRow& row, const RowPlan& plan);

// Model and machine files read once each, for preparing many rows (validate_data: a CSV of
// 200k rows names a handful of files).
struct PreparedFiles {
  struct Machine {
    MachineSpec spec;
    std::vector<RawParam> efficiency_raw;
  };
  std::map<std::string, ModelSpec> models;
  std::map<std::string, Machine> machines;
};
TESSERA_API PreparedRow prepare_row(const DataRow& row, const RowPlan& plan, PreparedFiles& files);

// The prediction in the row's unit, with `latency` and the machine's validated efficiency
// block. Throws Error when the configuration is not valid on the machine.
// A collective row's prediction in detail (SI): the time, the algorithm the physics chose and
// the rates the latency model applied.
struct CollectiveDetail {
  double seconds = 0;
  CollAlgorithm algorithm = CollAlgorithm::ring;
  Protocol protocol = Protocol::none;
  double bw_efficiency = 1, extra_latency_s = 0;
};

// The prediction in the row's unit, with `latency` and the machine's validated efficiency
// block. Throws Error when the configuration is not valid on the machine. Collective rows
// fill `detail` when given.
TESSERA_API double predict_row(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                               const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory,
                               CollectiveDetail* detail = nullptr);

// ---- reports --------------------------------------------------------------------------
struct RowResult {
  std::string id, source, metric, unit, framework;
  double measured = 0, predicted = 0, ape = 0;  // ape: |predicted - measured| / measured
  // Collective rows: the plan, the machine file stem and what the physics chose.
  bool is_collective = false;
  CollectivePlan collective;
  std::string machine;
  CollectiveDetail detail;
};
struct UnmappedRow {
  std::string id, source, metric, reason;
};
struct ErrorStats {
  std::size_t n = 0;
  double median_ape = 0, mean_ape = 0;
};
TESSERA_API ErrorStats error_stats(const std::vector<double>& apes);

struct ModelReport {
  std::string latency;  // the latency plugin's name
  std::vector<RowResult> rows;
  std::vector<UnmappedRow> unmapped;
  ErrorStats overall;
  std::vector<std::pair<std::string, ErrorStats>> by_source;  // in order of first appearance
  // Collective rows per group (kGroup*), in order of first appearance; rows `apart` (hardware
  // ambiguous) have their own group and enter neither `overall` nor `by_source`.
  std::vector<std::pair<std::string, ErrorStats>> by_group;
};

struct ValidateOptions {
  std::vector<std::string> latency;  // plugin names
  bool latency_only = false;         // only the latency metrics (the acceptance set)
  std::string aliases;               // "" = default_aliases_path(data_root)
  std::string data_root;
  // Per row prepared, then per row predicted with each model ("rows prepared", "rows
  // predicted"); the cancellation token is polled as often (core/cancellation.hpp).
  ProgressCallback on_progress;
};

// Maps every row and predicts the mapped ones with each latency plugin.
TESSERA_API std::vector<ModelReport> validate_data(const std::vector<DataRow>& rows,
                                                   const PluginRegistry& registry,
                                                   const ValidateOptions& options);

// Text tables (one per latency model: rows, per-source and overall errors, unmapped rows).
TESSERA_API void print_reports(std::ostream& os, const std::vector<ModelReport>& reports,
                               bool show_rows = true);
// JSON: one model -> {latency, rows, unmapped, summary}; several -> {models: [...]}.
TESSERA_API std::string reports_json(const std::vector<ModelReport>& reports);

}  // namespace tessera::validation
