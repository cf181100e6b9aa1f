#pragma once
// `tessera validate-data`: predicts published measurements (rows in the format of
// ../shared/data/measurements.csv) with one or more latency models and returns the errors.
// By concern: measurement_csv (reading), alias_table and row_plan (mapping a row),
// row_prediction (loading its files, predicting), error_stats (statistics); the text and JSON
// renderings are report/validation_report.
#include <string>
#include <utility>
#include <vector>

#include "analysis/alias_table.hpp"
#include "analysis/error_stats.hpp"
#include "analysis/measurement_csv.hpp"
#include "analysis/row_plan.hpp"
#include "analysis/row_prediction.hpp"
#include "core/progress.hpp"
#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"

namespace tessera::validation {

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

}  // namespace tessera::validation
