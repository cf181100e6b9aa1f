#pragma once
// `run`'s façade entry (docs/architecture.md "The study façade"): the search of a step
// scenario's parallelism space with its search plugin, planned (the strategy created, before the
// front end checks its outputs) then computed (analysis/search/search_driver.hpp), returning the plain
// result, its `--json` document and provenance. The CLI (`tessera run`) and Python
// (`Scenario.run()`) both call it; they render and print.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/search/search_driver.hpp"
#include "studies/study_context.hpp"
#include "tessera/export.hpp"
#include "tessera/workload.hpp"

namespace tessera::studies {

struct RunOptions {
  unsigned threads = 0;                // 0 = every hardware thread; the results are the same for any
  std::optional<std::size_t> top;      // rows of the top N (default: the scenario's report.top)
  bool points = false;                 // keep the report's points (studies/json/points_json.hpp)
  bool document = false;               // build the --json document
  std::vector<Scope> scopes;           // the document's other scopes (`by_scope`), each searched quietly
  std::optional<std::string> command;  // the command line the document records as `command`
  ProgressCallback on_progress;
  std::function<void(const ConfigRecord&)> on_record;  // every evaluated configuration, as it comes
  StudyCheckpoint* checkpoint = nullptr;  // resumes from and records to it (SearchOptions::checkpoint)
  Executor* executor = nullptr;           // computes the work units (SearchOptions::executor; null: threads)
  // Units of kDefaultSearchUnit whatever the executor (a checkpoint's plan: the same in this process
  // and in worker processes, so that a study may be resumed with isolation on or off).
  bool fixed_units = false;
};

struct RunResult {
  SearchResult search;
  nlohmann::json document;    // null unless RunOptions::document
  nlohmann::json provenance;  // null unless RunOptions::document (also the document's `provenance`)
};

class TESSERA_API RunStudy {
 public:
  explicit RunStudy(const StudyContext& context);  // the plan: the scenario's search strategy
  RunResult compute(const RunOptions& options) const;
  // Whether the search is planned as work units (SearchStrategy::separable): a checkpoint needs it.
  bool separable() const { return strategy_->separable(); }

 private:
  const StudyContext& context_;
  std::shared_ptr<SearchStrategy> strategy_;
};

}  // namespace tessera::studies
