#pragma once
// Joint hardware × parallelism exploration (docs/specification.md §5, `tessera explore`): for each point of
// the
// scenario's sweep.hardware grid the best parallelism (the scenario's search) and its cost, the
// latency/cost Pareto frontier over the points, and the hardware sensitivity ranking at the
// scenario's own machine. Computes and returns; report/study_text/explore_report.hpp renders.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/search/search_driver.hpp"
#include "analysis/search/sensitivity.hpp"
#include "core/progress.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/objective.hpp"
#include "tessera/kinds/search_strategy.hpp"

namespace tessera {

struct ExplorePoint {
  std::uint64_t index = 0;     // the point's position in the hardware grid's order
  std::vector<double> values;  // one per sweep.hardware axis, SI
  SearchCounts counts;         // what the search evaluated at this point
  bool feasible = false;
  ConfigRecord best;  // the search's best (when feasible)
  double cost = NAN;  // the cost objective at the best (NaN when nothing is feasible)
};

struct ExploreResult {
  // In the grid's order: every point, or (ExploreOptions::keep) the kept ones.
  std::vector<ExplorePoint> points;
  std::uint64_t total_points = 0;            // the grid's points (points.size() when every one is kept)
  std::vector<std::size_t> pareto;           // indices into points: latency/cost frontier
  std::vector<HardwareElasticity> hardware;  // empty without sensitivity
  // Whether points[point] is on the frontier.
  bool on_pareto(std::size_t point) const {
    return std::find(pareto.begin(), pareto.end(), point) != pareto.end();
  }
};

struct ExploreOptions {
  SearchOptions search;     // threads, top, ...; its on_progress is not used
  bool sensitivity = true;  // the hardware sensitivity ranking at the scenario's machine
  // ("hardware points"), then with sensitivity the base search ("configurations") and the
  // knobs ("hardware knobs"); on the calling thread.
  ProgressCallback on_progress;
  // Computes the hardware points, one work unit each (nullptr: a ThreadExecutor of
  // search.threads); the nested searches run on the threads each unit is given and call no
  // search.on_record. The result is the same for every executor and thread count.
  Executor* executor = nullptr;
  // 0: every point kept in ExploreResult::points. N > 0: only the N best by latency and those
  // on the latency/cost frontier (memory flat in the grid's size); every point is handed to
  // on_point in the grid's order as it is merged.
  std::size_t keep = 0;
  std::function<void(const ExplorePoint&)> on_point;
  // Resumes from and records to this checkpoint (core/checkpoint/study_checkpoint.hpp): the
  // points it records are not computed again, those it streamed to on_point are streamed again.
  StudyCheckpoint* checkpoint = nullptr;
};

// `cost` prices each point's best configuration (its evaluate() at the point's machine). A point
// of a scenario-plugin axis re-creates the plugin it names (Session::with_point; the search and,
// for plugins.objectives.cost.<param>, the cost objective here).
TESSERA_API ExploreResult explore_hardware(const Session& session, const SearchStrategy& strategy,
                                           const Objective& cost, const ExploreOptions& options);

}  // namespace tessera
