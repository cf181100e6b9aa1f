#pragma once
// `tessera calibrate`: fits a latency model's machine-family and framework-profile values to
// measurements and measures how well they hold on rows they were not fitted on (the protocol of
// docs/accuracy.md: in sample, leave one source / machine family / framework version out; each
// held-out fold refits every value from the other rows only, and values its rows set in the full
// fit fall back to their a-priori starts). Returns data; report/study_text/calibration_report renders it.
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "analysis/calibration/fit_rows.hpp"
#include "analysis/calibration/fitter.hpp"
#include "analysis/calibration/folds.hpp"
#include "host/plugin_defaults.hpp"
#include "host/plugin_registry.hpp"
#include "tessera/export.hpp"

namespace tessera::calibration {

struct CalibrateOptions {
  FitRowOptions rows;
  std::string latency = plugin_defaults::kLatency;
  FitOptions fit;
  std::vector<FoldKind> folds = {FoldKind::in_sample, FoldKind::leave_one_source_out};
  bool bands = false;  // compute the error bands (leave one source out is then run)
  std::function<void(const std::string&)> on_fold;  // "fold 3/9: leave-one-source-out LLMCompass"
  // Called with every file read (FitData::files) once the rows are loaded, before any fit; may
  // throw (the command refuses an output that names one of them).
  std::function<void(const std::vector<std::string>&)> on_inputs;
};

struct ScoredRow {
  std::size_t row = 0;  // index into Calibration::data.rows
  double predicted = 0;
  bool ok = false;  // predicted (a finite, positive value)
  double ape = 1;   // |predicted - measured| / measured (1 when not predicted)
  double ln_ratio = 0;
};

struct FoldScore {
  Fold fold;
  std::size_t parameters = 0;          // values this fold fitted
  std::vector<std::string> fallbacks;  // values its test rows take a-priori (their group fitted none)
  std::vector<ScoredRow> scored;
};

struct ProtocolScore {
  FoldKind kind = FoldKind::in_sample;
  std::vector<FoldScore> folds;
  // Every scored row of every fold (each row once: a row is in one fold's test set).
  TESSERA_API std::vector<ScoredRow> pooled() const;
};

// One row of the band file (the common contract: data/error-bands.csv).
struct Band {
  std::string latency, family, framework, fold;
  std::size_t rows = 0, sources = 0;
  double p10 = 0, p50 = 0, p90 = 0;  // percentiles of ln(predicted/measured)
};

struct Calibration {
  std::string latency;
  FitData data;
  std::vector<FitParameter> table;
  FitResult fit;                     // on every row
  std::vector<std::string> sources;  // independent sources, in order of first appearance
  std::vector<ProtocolScore> protocol;
  std::vector<Band> bands;
  std::vector<std::string> notes;
};

// Throws InputError: no mappable row (every row's reason), fewer rows than fitted values, held-out
// folds asked for with rows from one source only. Throws Cancelled when the cancellation token is
// set (polled every 64 rows read and every 64 predictions).
TESSERA_API Calibration calibrate(const PluginRegistry& registry, const CalibrateOptions& options);

// The band rows of the leave-one-source-out fold: per family x framework and per family (`*`).
TESSERA_API std::vector<Band> error_bands(const Calibration& c, const ProtocolScore& loso);

// The absolute percentage errors of `rows`, those `keep` accepts (nullptr: every row).
TESSERA_API std::vector<double> apes(const Calibration& c, const std::vector<ScoredRow>& rows,
                                     bool (*keep)(const FitRow&));
// The measured metric a row stands for ("" for a row without a measurement).
TESSERA_API std::string metric_key(const FitRow& r);
// A row of the target metric itself (not an extra row fitted beside it).
TESSERA_API bool target_only(const FitRow& r);

}  // namespace tessera::calibration
