#pragma once
// What a study's renderers read of it (docs/architecture.md "Renderers take results"): a plain
// description built once by the study from its session (studies/study_context.hpp's
// description()), and the few figures a renderer would otherwise compute from the session
// (a serving point's engine-KV limits, the disaggregated pair's link and pools). A report/
// renderer takes these and the result data, never the session.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/calibration/error_bands.hpp"
#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "eval/engine_kv.hpp"
#include "scenario/scenario.hpp"
#include "studies/documents/disagg_document.hpp"  // DisaggBestAggregated
#include "studies/objective_info.hpp"
#include "tessera/export.hpp"
#include "tessera/workload.hpp"

namespace tessera {

class Session;

struct StudyDescription {
  Scenario scenario;                      // names, model, machine, workload, serving block, plugin choices
  std::string latency_name;               // the latency model evaluated
  std::string calibration_note;           // Session::calibration_note()
  Workload workload;                      // the evaluation context's (serve: ISL and OSL)
  std::vector<ObjectiveInfo> objectives;  // the evaluator's: names, units, directions
  Band band;                              // session_band(): the error band of every figure
  const ModelSpec& model() const { return scenario.model; }
  const MachineSpec& machine() const { return scenario.machine; }
};

TESSERA_API StudyDescription describe_study(const Session& session);

// Under a framework's KV rule (docs/frameworks.md "KV capacity"): what the engine allocates for
// a serving point's configuration and the batch it allows; shown = false when no rule applies
// or the layout is invalid.
struct EngineKvNote {
  bool shown = false;
  std::string capacity;           // describe_engine_kv()'s sentence
  std::int64_t kv_max_batch = 0;  // sequences the engine admits (engine_admitted_batch)
  EngineKvCapacity cap;           // the pool at the point's batch and token budget
};
// The engine-KV notes of the text report's points: the best, else the closest miss.
struct ServePointNotes {
  EngineKvNote best, closest_miss;
};
TESSERA_API ServePointNotes serve_point_notes(const Session& session, const ServeResult& result);

// What the disaggregated report reads beyond the study: its band, the pools' machines, the best
// pair's link and (with aggregated studies on other machines) the better aggregated best.
struct DisaggNotes {
  Band band;  // disaggregated_band()
  std::string prefill_machine, decode_machine;
  std::string best_link;  // disagg_link_name() of the best pair ("" when none)
  DisaggBestAggregated best_aggregated;
};
TESSERA_API DisaggNotes disagg_notes(const Session& session, const DisaggStudy& d, const ServeResult& agg,
                                     const std::vector<AggregatedOn>& also);

}  // namespace tessera
