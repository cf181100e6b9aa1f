#pragma once
// The rows a calibration fits and scores: the latency and single-stage rows of measurement CSVs (the format
// of data/measurements.csv, data/README.md) mapped through the alias table and prepared once, each labelled
// with the groups the folds hold out (its source, machine family, framework version).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/alias_table.hpp"
#include "analysis/measurement_csv.hpp"
#include "analysis/row_prediction.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

struct FitRow {
  std::string id, source;      // the CSV's id and source columns
  std::string file;            // the CSV it came from
  std::string family;          // machine family: the block's `family`, else the machine file's stem
  std::string framework;       // the framework profile's name ("vllm"; "" = the plugin's default)
  std::string version;         // the framework version the software column states ("" = none)
  bool extra = false;          // from an --extra CSV (weighs less in the loss)
  bool key_by_version = true;  // profiles keyed by framework@version (else by framework alone)
  validation::PreparedRow prep;

  // The framework version a leave-one-framework-version-out fold holds out ("vllm@0.6.3";
  // "tensorrt-llm@unversioned").
  TESSERA_API std::string framework_version() const;
  // The profile a fit gives its own values: the framework and, when stated and key_by_version,
  // its version.
  TESSERA_API std::string profile_key() const;
};

struct SkippedRow {
  std::string file, id, reason;
};

struct FitRowOptions {
  std::vector<std::string> target;  // CSVs whose rows are the acceptance set (weight 1)
  std::vector<std::string> extra;   // calibration CSVs (weight FitOptions::extra_weight)
  std::string aliases;              // "" = default_aliases_path(data_root)
  std::string data_root;
  std::string family;                      // every row's family ("" = from its machine file)
  std::vector<std::string> family_map;     // "NAME=stem,stem": machine file stems of family NAME
  std::string machine;                     // every row's machine file ("" = the alias table's)
  std::string framework, version;          // every row's framework profile ("" = the alias table's)
  std::vector<std::string> exclude_ids;    // "A-B" or "A": ids of --extra rows left out
  std::vector<std::string> exclude_notes;  // --extra rows whose notes contain the text, left out
  bool key_by_version = true;              // FitRow::key_by_version
  // Rows that built a measured-kernel table (id -> table): never fitted or scored
  // (latency/measured would be scored on its own inputs).
  std::map<std::string, std::string> table_rows;
};

struct FitData {
  std::vector<std::unique_ptr<validation::DataRow>> raw;  // owns what each prep.row points to
  std::vector<FitRow> rows;
  std::vector<SkippedRow> skipped;  // not latency rows, not mappable, excluded: each with the reason
  std::size_t rows_read = 0;        // rows of a fitted metric read (mapped or not)
};

// Reads and maps the rows. Throws InputError for an unreadable CSV or alias table.
TESSERA_API FitData load_fit_rows(const FitRowOptions& options);

}  // namespace tessera::calibration
