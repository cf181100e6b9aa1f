#pragma once
// The whole answer of `tessera serve` (and of the Python module's Scenario.serve, and of each
// point of `tessera explore` on a serve scenario): the aggregated study on `machine`, and with
// serving.disaggregated the disaggregated study on the pools' machines plus the aggregated study
// on each further machine the pools use, so the gain of disaggregation is taken against the best
// aggregated answer on any of them.
#include <optional>
#include <string>
#include <vector>

#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// The aggregated study on one further machine the pools use (serving.prefill_machine /
// decode_machine given).
struct AggregatedOn {
  std::string machine;  // its name ("DGX-H200")
  std::string pool;     // whose it is: "prefill" or "decode"
  ServeResult result;
};

struct ServingAnswer {
  ServeResult aggregated;             // on `machine`
  std::optional<DisaggStudy> disagg;  // serving.disaggregated present
  std::vector<AggregatedOn> also;     // empty: one machine
};

// `options` runs the study on `machine` (its on_point, on_progress and points there only).
TESSERA_API ServingAnswer run_serving_answer(const Session& session, const ServeStudyOptions& options);

// The same with the pools' own machines given as sessions (nullptr: the pool runs on `base`'s
// machine); `base` is the session on `machine`.
TESSERA_API ServingAnswer run_serving_answer(const Session& base, const Session* own_prefill,
                                             const Session* own_decode, const ServeStudyOptions& options);

}  // namespace tessera
