#pragma once
// The rows a calibration fits and scores: the latency and single-stage rows of measurement CSVs (the format
// of data/measurements.csv, data/README.md) mapped through the alias table and prepared once, each labelled
// with the groups the folds hold out (its source, machine family, framework version).
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/accuracy/row_prediction.hpp"
#include "analysis/measurements/alias_table.hpp"
#include "analysis/measurements/measurement_csv.hpp"
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
  const accuracy::DataRow* row = nullptr;  // its CSV row
  double measured = 0;                     // its value, in its unit
  // What it predicts from, prepared once for every row whose cells differ from its own only in
  // id, source and value (the rows of a CSV that repeats rows share one): its plan's `row` and
  // `measured` are the first such row's.
  std::shared_ptr<const accuracy::PreparedRow> prep;

  // Whether `other` gets the same prediction as this row under every fitted state: the same
  // prepared inputs, family and framework profile.
  TESSERA_API bool predicts_as(const FitRow& other) const;

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
  std::vector<std::unique_ptr<accuracy::DataRow>> raw;  // owns what each FitRow::row points to
  std::vector<FitRow> rows;
  std::vector<SkippedRow> skipped;  // not latency rows, not mappable, excluded: each with the reason
  std::size_t rows_read = 0;        // rows of a fitted metric read (mapped or not)
  std::size_t distinct = 0;         // distinct prepared predictions among `rows`
  std::vector<std::string> files;   // every file read: the CSVs, the alias table, models, machines
};

// Reads and maps the rows, polling the cancellation token every 64 rows. Throws InputError for
// an unreadable CSV or alias table.
TESSERA_API FitData load_fit_rows(const FitRowOptions& options);

// Whether the row's GEMMs run in 8 bits or fewer (the rows a family's 8-bit values rest on).
TESSERA_API bool eight_bit_gemms(const FitRow& row);

// The distinct predictions of `rows` (FitRow::predicts_as): one row of each, in order of first
// appearance, and for each row the index of its own. Linear in the rows.
struct DistinctRows {
  std::vector<const FitRow*> rows;
  std::vector<std::size_t> of_row;
};
TESSERA_API DistinctRows distinct_predictions(const std::vector<const FitRow*>& rows);

}  // namespace tessera::calibration
