#pragma once
// The whole answer of `tessera serve` (and of the Python module's Scenario.serve): the
// aggregated study on `machine`, and with serving.disaggregated the disaggregated study on the
// pools' machines plus the aggregated study on each further machine the pools use, so the gain
// of disaggregation is taken against the best aggregated answer on any of them.
#include <optional>
#include <string>
#include <vector>

#include "analysis/disagg_study.hpp"
#include "analysis/serve_study.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The aggregated study's best tokens/s/PE within the SLO (0: none) on one further machine the
// pools use (serving.prefill_machine / decode_machine given).
struct AggregatedBest {
  std::string machine;  // "DGX-H200 (the decode pool's)": its name and the pool whose it is
  double tokens_per_s_per_pe = 0;
};

struct ServingAnswer {
  ServeResult aggregated;             // on `machine`
  std::optional<DisaggStudy> disagg;  // serving.disaggregated present
  std::vector<AggregatedBest> also;   // empty: one machine
};

// `options` runs the study on `machine` (its on_point, on_progress and points there only).
TESSERA_API ServingAnswer run_serving_answer(const Session& session, const ServeStudyOptions& options);

}  // namespace tessera
