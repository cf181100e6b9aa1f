#pragma once
// `compare`'s façade entry (docs/architecture.md "The study façade"): the scenario's latency
// models ranked side by side (analysis/search/compare.hpp), planned (one session per model, the
// context's the first, before the front end checks its outputs), computed, and returned with
// its `--json` document and provenance. The CLI (`tessera compare`) and Python
// (`Scenario.compare()`) both call it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/search/compare.hpp"
#include "studies/study_context.hpp"
#include "tessera/export.hpp"
#include "tessera/workload.hpp"

namespace tessera::studies {

// The context's edit for `compare`: the latency models NAMES (comma-separated or repeated,
// none = the scenario's plugins.latency), a model the scenario already configures keeping its
// parameters (scenario/sweeps/latency_choices.hpp); unknown names are refused at the command line.
TESSERA_API void choose_latency_models(Scenario& scenario, const std::vector<std::string>& names);

struct CompareEntryOptions {
  unsigned threads = 0;          // 0 = every hardware thread
  Executor* executor = nullptr;  // the evaluations' work units (MPI ranks); null: threads
  ProgressCallback on_progress;
  bool document = false;               // build the --json document
  std::vector<Scope> scopes;           // the document's other scopes (`by_scope`), every model again, quietly
  std::optional<std::string> command;  // the command line the document records as `command`
};

struct CompareStudyResult {
  CompareResult result;
  nlohmann::json document;    // null unless CompareEntryOptions::document
  nlohmann::json provenance;  // null unless CompareEntryOptions::document
};

class TESSERA_API CompareEntry {
 public:
  explicit CompareEntry(const StudyContext& context);  // the plan: one session per latency model
  std::size_t models() const { return sessions_.size(); }
  CompareStudyResult compute(const CompareEntryOptions& options) const;

 private:
  const StudyContext& context_;
  std::vector<std::unique_ptr<Session>> owned_;  // the sessions of the second model on
  std::vector<const Session*> sessions_;
};

}  // namespace tessera::studies
