#pragma once
// `explore`'s façade entry (docs/architecture.md "The study façade"): the joint hardware x
// parallelism exploration of the scenario's sweep.hardware grid (analysis/explore/exploration.hpp) or, on
// a serve scenario, the serving study at every hardware point (analysis/explore/serve_exploration.hpp),
// planned (a step scenario's search plugin and cost objective created before the front end checks
// its outputs), computed, and its `--json` document built on request (after the front end has
// printed its text). The CLI (`tessera explore`) and Python (`Scenario.explore()`) both call it.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "analysis/explore/exploration.hpp"
#include "analysis/explore/serve_exploration.hpp"
#include "studies/document_options.hpp"
#include "studies/study_context.hpp"
#include "tessera/export.hpp"

namespace tessera::studies {

struct ExploreStudyOptions {
  bool sensitivity = true;  // a step scenario's hardware sensitivity ranking (no-op on serve)
  unsigned threads = 0;     // 0 = every hardware thread; the results are the same for any
  ProgressCallback on_progress;
  // A step scenario's (ExploreOptions): the points kept (0 = all), every point as it is merged,
  // the checkpoint.
  std::size_t keep = 0;
  std::function<void(const ExplorePoint&)> on_point;
  StudyCheckpoint* checkpoint = nullptr;
  // A step scenario's hardware points, one work unit each, computed by it (ExploreOptions::executor;
  // null: threads of this process). A serve scenario's run on threads.
  Executor* executor = nullptr;
};

// One of the two, as the scenario's mode says.
struct ExploreStudyResult {
  std::optional<ExploreResult> step;        // a step scenario's grid
  std::optional<ServeExploreResult> serve;  // a serve scenario's
};

class TESSERA_API ExploreEntry {
 public:
  // The plan: a step scenario's search plugin and cost objective (the scenario's objective/cost
  // when listed, with its parameters, else one with the defaults).
  explicit ExploreEntry(const StudyContext& context);
  bool serving() const { return serving_; }  // workload.mode: serve
  // The machines the study prices: every hardware point, then (a step scenario with
  // `sensitivity`) the scenario's machine and two perturbations of each hardware knob.
  std::uint64_t machines(bool sensitivity) const;
  ExploreStudyResult compute(const ExploreStudyOptions& options) const;
  // The --json document of `result` (computed with `options`), with its provenance.
  nlohmann::json document(const ExploreStudyResult& result, const ExploreStudyOptions& options,
                          const DocumentOptions& extras = {}) const;

 private:
  const StudyContext& context_;
  bool serving_;
  std::shared_ptr<SearchStrategy> strategy_;  // step only
  std::shared_ptr<Objective> cost_;           // step only
};

}  // namespace tessera::studies
