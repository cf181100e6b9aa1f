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

class TESSERA_API SensitivityEntry {
 public:
  explicit SensitivityEntry(const StudyContext& context);  // the plan: the scenario's search plugin
  SensitivityStudy compute(const SensitivityOptions& options) const;
  // The hardware knobs --hardware perturbs (each twice): the study's size before it runs.
  std::uint64_t hardware_knob_count() const;
  // The --json document of `result` (computed with `options`), with its provenance.
  nlohmann::json document(const SensitivityStudy& result, const SensitivityOptions& options,
                          const DocumentOptions& extras = {}) const;

 private:
  const StudyContext& context_;
  std::shared_ptr<SearchStrategy> strategy_;
};

}  // namespace tessera::studies
