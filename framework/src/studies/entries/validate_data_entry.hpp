#pragma once
// `validate-data`'s façade entry (docs/architecture.md "The study façade"): every measured row of
// a CSV mapped through the alias table and predicted by each latency model
// (analysis/accuracy/accuracy_study.hpp), planned (the latency models resolved, the data root found),
// computed, and its `--json` document built. The CLI (`tessera validate-data`) and Python
// (`tessera.validate_data`) both call it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/accuracy/accuracy_study.hpp"
#include "host/plugin_registry.hpp"
#include "scenario/scenario_loader.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

// The serving model of the serving rows when none is named ("aggregated").
TESSERA_API const char* default_validation_serving();

struct ValidateDataOptions {
  std::string csv;                   // the measurements CSV
  std::vector<std::string> latency;  // the latency models; empty = every latency plugin found
  // With `latency` empty: the measured-table model last (the CLI's order: it is scored on fewer
  // rows, and the analytical models keep their places in the report).
  bool measured_last = false;
  std::string aliases;  // "" = data/aliases.yaml
  bool latency_only = false;
  std::string serving;    // the serving model of the serving rows; "none" skips them
  bool simulate = false;  // also the rows at a stated concurrency through the request simulator
  LoadOptions load;       // where the default scenario is: the data root (models/, machines/, data/)
  std::string who;        // names the study in its errors ("validate-data", "validate_data")
  ProgressCallback on_progress;
};

class TESSERA_API ValidateDataEntry {
 public:
  // The registry of the plugin path (the CLI's, with its overrides).
  ValidateDataEntry(const std::vector<std::string>& plugin_paths, const std::vector<std::string>& overrides);
  // A shared registry (Python's, one per plugin path).
  explicit ValidateDataEntry(std::shared_ptr<PluginRegistry> registry);
  const PluginRegistry& registry() const { return *registry_; }
  // The plan: the latency models resolved (an Error when none is found), the data root found.
  accuracy::ValidateOptions plan(const ValidateDataOptions& options) const;
  // Reads the CSV and predicts every row with each model of `plan`.
  std::vector<accuracy::ModelReport> compute(const std::string& csv,
                                             const accuracy::ValidateOptions& plan) const;
  // The --json document of `reports`, with the command line when given and the provenance.
  nlohmann::json document(const std::vector<accuracy::ModelReport>& reports,
                          const std::optional<std::string>& command = {}) const;

 private:
  std::shared_ptr<PluginRegistry> registry_;
};

}  // namespace tessera::studies
