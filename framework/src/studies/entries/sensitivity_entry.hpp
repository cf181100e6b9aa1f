#pragma once
// `sensitivity`'s façade entry (docs/architecture.md "The study façade"): one-knob parallelism
// sweeps around the best configuration and the hardware elasticities (analysis/search/sensitivity.hpp),
// planned (the strategy created before the front end checks its outputs), computed, and its
// `--json` document built on request (after the front end has printed its text). The CLI
// (`tessera sensitivity`) and Python (`Scenario.sensitivity()`) both call it.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/search/sensitivity.hpp"
#include "analysis/serving/serve_sensitivity.hpp"
#include "studies/document_options.hpp"
#include "studies/study_context.hpp"
#include "tessera/export.hpp"
#include "tessera/workload.hpp"

namespace tessera::studies {

struct SensitivityOptions {
  bool parallelism = true;  // the one-knob parallelism sweeps
  bool hardware = true;     // the hardware elasticities
  unsigned threads = 0;     // 0 = every hardware thread; the results are the same for any
  ProgressCallback on_progress;
  // The searches' executor (MPI ranks: StudyWorkers::executor(), each search merged on every
  // rank, which go on from its best configuration); null: threads.
  Executor* executor = nullptr;
};

// A step scenario's study (`step`) or a serve scenario's (`serve`: the serving study's best
// tokens/s/PE within the SLO, analysis/serving/serve_sensitivity.hpp); exactly one is set.
struct SensitivityResult {
  std::optional<SensitivityStudy> step;
  std::optional<ServeSensitivityStudy> serve;
};

class TESSERA_API SensitivityEntry {
 public:
  // The plan: the scenario's search plugin (a step scenario; a serve scenario runs the serving study).
  explicit SensitivityEntry(const StudyContext& context);
  SensitivityResult compute(const SensitivityOptions& options) const;
  // The knobs --hardware perturbs (each twice): the study's size before it runs.
  std::uint64_t hardware_knob_count() const;
  bool serving() const { return serving_; }
  // The --json document of `result` (computed with `options`), with its provenance.
  nlohmann::json document(const SensitivityResult& result, const SensitivityOptions& options,
                          const DocumentOptions& extras = {}) const;

 private:
  const StudyContext& context_;
  bool serving_ = false;  // workload.mode: serve
  std::shared_ptr<SearchStrategy> strategy_;
};

}  // namespace tessera::studies
