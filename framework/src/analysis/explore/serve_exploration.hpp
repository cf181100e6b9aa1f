#pragma once
// `tessera explore` on a serve scenario (docs/physics.md §12.4 "Heterogeneous pools"): at every
// point of sweep.hardware (axes on `machine`, serving.prefill_machine.<path>,
// serving.decode_machine.<path>) the aggregated study on each machine and, with
// serving.disaggregated, the disaggregated one; the points ranked by the best tokens/s/PE within
// the SLO of either, so that "which decode part with which prefill part" is one table.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

struct ServeExplorePoint {
  std::vector<double> values;  // one per sweep.hardware axis, SI
  // The aggregated study's most tokens/s/PE within the SLO (0: none) on the best machine, its
  // name and configuration.
  double aggregated = 0;
  std::string aggregated_machine;
  std::optional<ServeRecord> aggregated_best;
  std::optional<DisaggPair> disaggregated;  // its best within the SLO (serving.disaggregated)
  double gain = 0;                          // disaggregated / aggregated (0: either has none)
  double best = 0;  // with serving.disaggregated its best tokens/s/PE, else `aggregated`
  // The aggregated study's best value within the SLO on each of its axes (ServeExploreResult::axes;
  // NaN: no point within the SLO), from the study on `aggregated_machine`.
  std::vector<double> objective_values;
  // serving.disaggregated with the cost_per_mtok objective: the best pair's USD per million output
  // tokens by the same price model over both pools' PEs (NaN: no pair, or not priced:
  // ServeExploreResult::disaggregated_cost_note).
  double disaggregated_cost_per_mtok = NAN;
};

struct ServeExploreResult {
  std::vector<ServeExplorePoint> points;  // in the grid's order
  std::vector<ServeAxis> axes;            // the serving study's (the scenario's objectives); the first ranks
  // Per axis, the value each point is ranked by (ranked_values[a][i]) and the points' order by it
  // (rankings[a]: the best first in the axis's direction, none within the SLO last, ties in the
  // grid's order). tokens_per_s_per_pe ranks by `best` (the disaggregated pair's with
  // serving.disaggregated); cost_per_mtok with serving.disaggregated by the pair's cost when it is
  // priced (ranked_disaggregated[a]), else by the aggregated study's; any other axis by the
  // aggregated study's value.
  std::vector<std::vector<double>> ranked_values;
  std::vector<std::vector<std::size_t>> rankings;
  std::vector<bool> ranked_disaggregated;
  std::vector<std::size_t> ranking;     // rankings.front(): what the table lists
  std::string disaggregated_cost_note;  // why the pair is not priced ("" when it is, or not asked)
};

struct ServeExploreOptions {
  unsigned threads = 0;
  ProgressCallback on_progress;  // "hardware points", on the calling thread
  // Computes the hardware points, one work unit each (nullptr: a ThreadExecutor of `threads`).
  // The result is the same for every executor and thread count.
  Executor* executor = nullptr;
};

TESSERA_API ServeExploreResult explore_serving(const Session& session, const ServeExploreOptions& options);

}  // namespace tessera
