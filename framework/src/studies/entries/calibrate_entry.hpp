#pragma once
// `calibrate`'s façade entry (docs/architecture.md "The study façade"): a latency model's
// machine-family and framework-profile values fitted to measurements and scored on rows each
// held-out fold never saw (analysis/calibration/calibration_study.hpp), planned from the command
// line's choices (checked: rounds, sources, profile key, framework, folds, bands, the CSVs exist;
// the rows' data root found), computed on the registry of the plugin path, returning the
// calibration, its --json document (studies/documents/calibration_document.hpp) and provenance.
// The CLI (`tessera calibrate`) renders it (report/study_text/calibration_report.hpp: the family blocks,
// the band file, the text).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/calibration/calibration_study.hpp"
#include "host/plugin_defaults.hpp"
#include "host/plugin_registry.hpp"
#include "studies/scenario_options.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

struct CalibrateOptions {
  std::vector<std::string> csv;         // the target CSVs (rows weigh 1)
  calibration::CalibrateOptions study;  // the row options as given (--extra, --aliases, --family, ...)
  std::string latency = plugin_defaults::kLatency;  // the model whose values are fitted
  std::string framework;  // NAME[@VERSION]: the profile of every row ("" = the alias table's)
  std::optional<std::vector<std::string>> folds;  // fold names ("all" = every fold); none = the default
  std::string profile_key = "version";            // version or framework
  int rounds = calibration::CalibrateOptions{}.fit.optimizer.rounds;
  std::size_t min_sources = calibration::CalibrateOptions{}.fit.min_sources;
  bool bands = false;  // the band file is written (latency/calibrated only)
  LoadOptions load;    // where the shipped data is: the rows' data root
};

// The study's options, checked (InputError "calibrate: ..." on the first problem, in the order
// the options are listed above).
TESSERA_API calibration::CalibrateOptions plan_calibration(const CalibrateOptions& options);

struct CalibrateResult {
  calibration::Calibration calibration;
  nlohmann::json document;  // the --json document, with the provenance; null unless asked for
};

class TESSERA_API CalibrateEntry {
 public:
  CalibrateEntry(const std::vector<std::string>& plugin_paths, const std::vector<std::string>& overrides);
  // Fits and scores (InputError, Cancelled: calibration::calibrate); with `command` (the command
  // line the document records), builds the --json document too.
  CalibrateResult compute(const calibration::CalibrateOptions& plan,
                          const std::optional<std::string>& command = std::nullopt) const;
  // The provenance of the plugins it loaded: the --json member, and as the band file's comments.
  nlohmann::json provenance() const;
  std::string provenance_comment() const;
  const PluginRegistry& registry() const { return registry_; }

 private:
  PluginRegistry registry_;
};

}  // namespace tessera::studies
