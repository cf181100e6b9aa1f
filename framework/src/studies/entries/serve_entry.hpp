#pragma once
// `serve`'s façade entry (docs/architecture.md "The study façade"): the serving answer of a
// `workload.mode: serve` scenario (analysis/serving/serving_answer.hpp: the aggregated study, and the
// disaggregated one when serving.disaggregated is on), returning the plain answer, its `--json`
// document and provenance. The CLI (`tessera serve`) and Python (`Scenario.serve()`) both call
// it; they render and print. (Named serve_entry: analysis/serving/serve_study.hpp is the study itself.)
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/capacity/capacity_study.hpp"
#include "analysis/capacity/configuration_sim.hpp"
#include "analysis/capacity/disagg_point_sim.hpp"
#include "analysis/serving/serving_answer.hpp"
#include "studies/study_context.hpp"
#include "studies/study_description.hpp"
#include "tessera/export.hpp"
#include "tessera/workload.hpp"

namespace tessera::studies {

struct ServeOptions {
  unsigned threads = 0;  // 0 = every hardware thread; the results are the same for any
  // The serving study's work units' executor (MPI ranks: StudyWorkers::executor()); null: threads.
  Executor* executor = nullptr;
  std::optional<std::size_t> top;      // rows of the top N (default: the scenario's report.top)
  std::int64_t max_pes = -1;           // PEs of one configuration at most (-1: serving.max_pes; 0: none)
  bool points = false;                 // keep the report's points (studies/json/points_json.hpp)
  bool document = false;               // build the --json document
  std::vector<Scope> scopes;           // the document's other scopes (`by_scope`), each studied quietly
  std::optional<std::string> command;  // the command line the document records as `command`
  ProgressCallback on_progress;
  std::function<void(const ServeRecord&)> on_point;  // every evaluated serving point, as it comes
  // serving.requests given: called once before the best point is simulated (config, point), then
  // with every request as it finishes (`--requests FILE`; none kept when unset).
  std::function<void(const ParallelConfig&, const ServingPoint&)> on_simulation_start;
  std::function<void(const requests::RequestOutcome&)> on_request;
  // The finalists whose capacity is searched by simulation (docs/physics.md §12.6): unset, 20
  // with serving.requests and 0 without (the stream then the workload's lengths, Poisson).
  std::optional<std::size_t> simulate_top;
  requests::CapacitySettings capacity;  // the probes' sizes and the bisection's tolerance
  std::size_t capacity_unit = 1;        // finalists per work unit (the result is the same for any)
  ProgressCallback on_capacity_progress;
};

// The request stream the capacity search offers: serving.requests, or without it a Poisson
// stream of the workload's input and output lengths (seed 1).
TESSERA_API RequestsSpec capacity_stream(const Scenario& scenario);

// The finalists simulated: ServeOptions::simulate_top, else 20 with serving.requests, else 0.
TESSERA_API std::size_t simulated_finalists(const ServeOptions& options, const Scenario& scenario);

struct ServeStudyResult {
  ServingAnswer answer;
  // What the text report states beyond the answer (studies/study_description.hpp): the best
  // point's (or closest miss's) engine-KV limits, and the disaggregated study's link and pools.
  ServePointNotes notes;
  std::optional<DisaggNotes> disagg_notes;
  // serving.requests given and a best point found: that point under the request stream
  // (docs/physics.md §12.5).
  std::optional<requests::SimulatedPoint> simulated;
  nlohmann::json document;    // null unless ServeOptions::document
  nlohmann::json provenance;  // null unless ServeOptions::document (also the document's `provenance`)
  // serving.requests given and the disaggregated study found a best pair: that pair under the
  // same stream (analysis/capacity/disagg_point_sim.hpp).
  std::optional<requests::SimulatedPair> simulated_disagg;
  // The top K confirmed by simulation, and the disaggregated best pair's capacity (K > 0 and a
  // point within the SLO).
  std::optional<requests::CapacityStudy> capacity;
};

TESSERA_API ServeStudyResult serve(const StudyContext& context, const ServeOptions& options);

// The `--set` overrides of the maximum-throughput question (`serve --max-throughput`, docs/
// accuracy.md "Full-load rows"), applied after the user's: no SLO, the batch grid of
// kMaxThroughputBatches (the engine's admission drops what does not fit), tokens/s/PE first.
TESSERA_API std::vector<std::string> max_throughput_overrides();

}  // namespace tessera::studies
