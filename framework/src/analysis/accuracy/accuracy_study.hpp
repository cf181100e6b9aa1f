#pragma once
// `tessera validate-data`: predicts published measurements (rows in the format of
// data/measurements.csv) with one or more latency models and returns the errors.
// By concern: measurement_csv (reading), alias_table and row_plan (mapping a row),
// row_prediction (loading its files, predicting), error_stats (statistics); the text and JSON
// renderings are report/study_text/accuracy_report.
#include <string>
#include <utility>
#include <vector>

#include "analysis/accuracy/error_stats.hpp"
#include "analysis/accuracy/load_rows.hpp"
#include "analysis/accuracy/row_plan.hpp"
#include "analysis/accuracy/row_prediction.hpp"
#include "analysis/accuracy/serving_rows.hpp"
#include "analysis/accuracy/simulated_rows.hpp"
#include "analysis/measurements/alias_table.hpp"
#include "analysis/measurements/measurement_csv.hpp"
#include "core/progress.hpp"
#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"

namespace tessera::accuracy {

struct RowResult {
  std::string id, source, metric, unit, framework;
  std::string framework_version;                // the version the software column states ("" = none)
  double measured = 0, predicted = 0, ape = 0;  // ape: |predicted - measured| / measured
  bool bound = false;  // a ceiling, not an estimate (RowPlan::bound): in no median but its group's
  // A full-load row (analysis/accuracy/serving_rows.hpp predict_full_load_row): the batch per replica that
  // gave the best, the engine's KV capacity per replica (0: no rule) and its rule ("" none).
  bool full_load = false;
  std::int64_t full_load_batch = 0, full_load_kv_tokens = 0;
  std::string engine;
  // A row under a load (analysis/accuracy/load_rows.hpp): the simulated stream and what it read.
  bool under_load = false;
  LoadAnswer load;
  std::string load_statistic, lengths_from;
  // Collective rows: the plan, the machine file stem and what the physics chose.
  bool is_collective = false;
  CollectivePlan collective;
  std::string machine;
  CollectiveDetail detail;
  // A serving row (analysis/accuracy/serving_rows.hpp): the same quantity through the serving model.
  bool serving = false;
  double serving_predicted = 0, serving_ape = 0;
  // --simulate (analysis/accuracy/simulated_rows.hpp): the row through the request simulator.
  bool simulated = false;
  SimulatedRow simulation;
  double simulated_ape = 0;
};
struct UnmappedRow {
  std::string id, source, metric, reason;
};

struct ModelReport {
  std::string latency;  // the latency plugin's name
  std::vector<RowResult> rows;
  std::vector<UnmappedRow> unmapped;
  ErrorStats overall;
  std::vector<std::pair<std::string, ErrorStats>> by_source;  // in order of first appearance
  // Collective rows per group (kGroup*), and rows with a group of their own (kGroupOfflineBound),
  // in order of first appearance; rows `apart` (hardware ambiguous) and bounds have their own
  // group and enter neither `overall` nor `by_source`.
  std::vector<std::pair<std::string, ErrorStats>> by_group;
  // Per metric, in order of first appearance: rows mapped (predicted) of the rows in the file
  // (with --latency-only, of the latency rows), and the errors of the mapped ones (bounds and
  // hardware-ambiguous rows included: each metric's own figure).
  struct MetricCount {
    std::string metric;
    std::size_t mapped = 0, rows = 0;
    ErrorStats errors;
  };
  std::vector<MetricCount> by_metric;
  // Serving rows: the serving model's name ("" when none ran), its errors overall and per source,
  // and the serving rows it could not predict (the step-level prediction stands for them).
  std::string serving;
  ErrorStats serving_overall;
  std::vector<std::pair<std::string, ErrorStats>> serving_by_source;
  std::vector<UnmappedRow> serving_unmapped;
  // --simulate: the rows through the request simulator, their errors overall, per source and per
  // metric and statistic ("ttft mean", "itl p99"), how many of them the simulation has closer
  // than the serving model, and the rows that state a concurrency or a rate but cannot be run.
  bool simulate = false;
  ErrorStats simulated_overall;
  std::vector<std::pair<std::string, ErrorStats>> simulated_by_source, simulated_by_metric;
  std::size_t simulated_improved = 0, simulated_compared = 0;
  std::vector<UnmappedRow> simulated_not_run;
};

struct ValidateOptions {
  std::vector<std::string> latency;  // plugin names
  bool latency_only = false;         // only the latency metrics (the acceptance set)
  std::string aliases;               // "" = default_aliases_path(data_root)
  // The serving model of the serving rows (plugin_defaults::kValidationServing); "" = none.
  std::string serving;
  // Also predict the rows measured at a stated concurrency through the request simulator.
  bool simulate = false;
  std::string data_root;
  // Per row prepared, then per row predicted with each model ("rows prepared", "rows
  // predicted"); the cancellation token is polled as often (core/cancellation.hpp).
  ProgressCallback on_progress;
};

// Maps every row and predicts the mapped ones with each latency plugin.
TESSERA_API std::vector<ModelReport> validate_data(const std::vector<DataRow>& rows,
                                                   const PluginRegistry& registry,
                                                   const ValidateOptions& options);

}  // namespace tessera::accuracy
