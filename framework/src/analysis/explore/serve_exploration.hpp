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
  double best = 0;  // what ranks: with serving.disaggregated its best tokens/s/PE, else `aggregated`
};

struct ServeExploreResult {
  std::vector<ServeExplorePoint> points;  // in the grid's order
  std::vector<std::size_t> ranking;       // indices into points: most `best` first (ties: the grid's order)
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
