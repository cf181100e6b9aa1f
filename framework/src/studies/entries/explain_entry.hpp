#pragma once
// `explain`'s façade entry (docs/architecture.md "The study façade"): one configuration, parsed
// against the scenario's machine, canonicalised (docs/specification.md §2.8) and evaluated, and
// its `--json` document built on request (the other scopes, the command line, the provenance).
// The CLI (`tessera explain`) and Python (`Scenario.explain()`) both call it; each refuses an
// invalid configuration in its own words (`invalid_reason`).
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "eval/evaluator.hpp"
#include "studies/document_options.hpp"
#include "studies/study_context.hpp"
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/step_work.hpp"

namespace tessera::studies {

struct ExplainResult {
  ParallelConfig parsed;  // as given (knobs left out take their defaults)
  ParallelConfig config;  // canonicalised: what was evaluated
  Evaluation evaluation;
  // What the text (report/study_text/explain_report.hpp) states beyond the evaluation, computed here
  // (explain_details) for a valid configuration:
  std::shared_ptr<const StepWork> work;  // the step whose collectives it lists (prefill: the first chunk)
  std::string parallel_block_note;       // which stage carries the merged TP reduction ("" when none)
  std::string chunk_note;                // "; chunk 1 of N, T tokens; ..." for a chunked prefill, else ""
  bool canonicalised() const { return !(config == parsed); }
};

// Fills `result`'s text figures (work, parallel_block_note, chunk_note) from its evaluation on
// `session`; ExplainEntry::compute calls it.
TESSERA_API void explain_details(const Session& session, ExplainResult& result);

class TESSERA_API ExplainEntry {
 public:
  explicit ExplainEntry(const StudyContext& context) : context_(context) {}
  // Parses `config_text` ("cp=8,tp=4,..."; InputError on a bad knob), canonicalises and evaluates it.
  ExplainResult compute(const std::string& config_text) const;
  // "" for a valid configuration, else "<config>: invalid configuration: <why>".
  std::string invalid_reason(const ExplainResult& result) const;
  // The --json document of a valid `result`, with its provenance; a configuration invalid under
  // one of the other scopes is an Error.
  nlohmann::json document(const ExplainResult& result, const DocumentOptions& extras = {}) const;

 private:
  const StudyContext& context_;
};

}  // namespace tessera::studies
