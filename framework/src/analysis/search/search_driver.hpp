#pragma once
// Runs a search strategy against a session's evaluator (docs/specification.md §5): proposals are evaluated in
// batches on N threads (eval/batch_evaluator.hpp: results in per-index slots, so the output is
// identical for any N), scores fed back, and the evaluated
// configurations summarised: counts, best, Pareto frontier, top N.
//
// Streaming: the driver holds the top N and the Pareto frontier (merged per batch), not one
// record per evaluated configuration, so memory stays flat however many configurations are
// evaluated. A caller that needs every record asks for them (SearchOptions::keep_records) or
// receives them one by one as they come (SearchOptions::on_record: `tessera run --csv`).
#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/checkpoint/study_checkpoint.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "core/statistics/pareto.hpp"  // oriented()
#include "eval/evaluator.hpp"
#include "eval/grid_space.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/search_strategy.hpp"

namespace tessera {

// One evaluated configuration, its totals (SI units): the host's one type for it
// (docs/architecture.md "One evaluated configuration"). `--json`'s points list holds it
// (SearchPoint), the full record extends it (ConfigRecord) and the driver's ranking candidates
// embed it; plugins see it as the SDK's SearchScore, and eval's Evaluation is the evaluator's
// scratch it is read from.
struct EvaluatedConfig {
  std::uint64_t key = 0;  // the configuration's position in the evaluation (grid index, or after)
  ParallelConfig config;
  std::array<double, kMaxObjectives> objectives{};
  double latency_s = 0;
  double throughput_tok_s = 0;  // one-step figure (dp·B/latency)
  std::int64_t pes = 0;
  bool fits_memory = false;
  bool feasible = false;  // valid and fits memory
};

// One evaluated configuration as `--json`'s `points` list holds it (the totals only).
using SearchPoint = EvaluatedConfig;

// One evaluated configuration, compact (SI units): its totals and what the CSV and the
// reports add (validity, utilisation, memory, the reason).
struct ConfigRecord : EvaluatedConfig {
  std::int64_t grid_index = -1;  // position in the space's valid_configs(); -1 outside the grid
  double score = 0;              // first objective, oriented so that lower is better
  double pipeline_throughput_tok_s = 0;
  double efficiency = 0, compute_util = 0, bw_util = 0;
  std::array<std::int64_t, kMaxLevels + 1> units_used{};  // per placement level (0 = PEs)
  bool valid = false;                                     // the layout is valid
  bool placement_valid = false;                           // no placement/size rule broken (seed vocabulary)
  InvalidReason invalid_reason = InvalidReason::none;     // why not valid (none when valid)
  NonFinite non_finite = NonFinite::none;                 // valid, but this quantity came out inf/NaN
  std::string reason;                                     // why not feasible ("" when feasible)
  double weights_bytes = 0, kv_bytes = 0, transient_bytes = 0, used_bytes = 0, budget_bytes = 0;
  double hbm_utilization = 0;  // used / budget (per PE, most loaded stage)
};

struct SearchCounts {
  std::uint64_t enumerated = 0;  // grid points
  std::uint64_t valid = 0;       // canonical and valid
  std::uint64_t feasible = 0;    // of the evaluated, valid and fitting memory
  std::uint64_t evaluated = 0;   // scored by the search
  std::uint64_t non_finite = 0;  // of the evaluated, valid but infeasible for a non-finite quantity
};

struct SearchOptions {
  unsigned threads = 0;  // 0 = std::thread::hardware_concurrency()
  // Progress after every batch: (distinct configurations evaluated, valid configurations in
  // the space, "configurations"), on the calling thread; unset = none (the nested searches of
  // a study that reports its own progress). The driver never prints.
  ProgressCallback on_progress;
  std::size_t top = 20;
  std::size_t batch = 4096;
  // Keep a record of every evaluated configuration in SearchResult::records (memory grows
  // with the search: ~350 bytes per configuration). Off: only the best, the Pareto frontier
  // and the top N are kept.
  bool keep_records = false;
  // Called once per distinct evaluated configuration, reason text included, on the calling
  // thread, in evaluation order: the space's order for strategies that propose in it
  // (exhaustive, random), the strategy's order otherwise. `tessera run --csv` writes its rows
  // from here as they come.
  std::function<void(const ConfigRecord&)> on_record;
  // At most this many valid configurations (layout valid, every quantity finite; fitting
  // memory or not) kept as SearchResult::points: all of them when they are no more, else a
  // seeded reservoir sample (core/statistics/reservoir.hpp). 0 = none. The buffer is reserved once.
  std::size_t points = 0;
  // The study's plan (docs/architecture.md "Studies: plan, work units, merge"): a separable
  // strategy (SearchStrategy::separable) searches the space in work units of this many
  // configurations (0 = default_search_unit), computed by `executor` (nullptr: a ThreadExecutor
  // of `threads`) and merged exactly in the space's order; any other strategy is one unit. The
  // result is the same for every unit size, executor and thread count.
  std::uint64_t unit_size = 0;
  Executor* executor = nullptr;
  // Every process of the executor merges the plan (UnitCodec::everywhere): a study that goes on
  // from the search's result (sensitivity) on every MPI rank.
  bool merged_everywhere = false;
  // Resumes from and records to this checkpoint (core/checkpoint/study_checkpoint.hpp): the
  // units it records as merged are not computed again, the rows they streamed to on_record are
  // streamed again, and the result is the one an uninterrupted search gives. Null: none.
  StudyCheckpoint* checkpoint = nullptr;
};

// Configurations per work unit of a separable search (SearchOptions::unit_size's default): a
// unit's buffered outcome (its sampled points, ~140 bytes each) stays under a few MB. Units in
// worker processes (Executor::remote()) are smaller - about a 16th of the space, at least
// kMinRemoteSearchUnit - so that the workers share even a small space (each evaluates on one
// thread). Both sides of a remote plan are remote executors: they plan the same units.
inline constexpr std::uint64_t kDefaultSearchUnit = 16384;
inline constexpr std::uint64_t kMinRemoteSearchUnit = 256;
inline constexpr std::uint64_t default_search_unit(std::uint64_t valid, bool remote) {
  if (!remote) return kDefaultSearchUnit;
  return std::clamp((valid + 15) / 16, kMinRemoteSearchUnit, kDefaultSearchUnit);
}

struct SearchResult {
  SearchCounts counts;
  // In the space's order (proposals outside the grid last, in proposal order). With
  // keep_records every evaluated config; otherwise only those best, pareto and top refer to.
  std::vector<ConfigRecord> records;
  std::optional<std::size_t> best;  // index into records
  std::vector<std::size_t> pareto;  // indices into records, feasible, non-dominated, ascending
  std::vector<std::size_t> top;     // best first
  std::vector<ObjectiveSlot> objectives;
  // SearchOptions::points: in the space's order; points_seen valid configurations were
  // offered, points_sampled when more than points.size().
  std::vector<SearchPoint> points;
  std::uint64_t points_seen = 0;
  bool points_sampled = false;
};

// Evaluates one configuration into a record (reason text for invalid / not fitting).
TESSERA_API ConfigRecord evaluate_record(const Session& session, const ParallelConfig& c,
                                         Evaluation& scratch);
TESSERA_API void fill_record(const Session& session, const Evaluation& e, ConfigRecord& r);
// The same without the reason text (no allocation); record_reason() gives it afterwards.
TESSERA_API void fill_record_numbers(const Session& session, const Evaluation& e, ConfigRecord& r);
// Why a record is not feasible ("" when it is): the invalidity or the memory overflow.
TESSERA_API std::string record_reason(const Session& session, const ConfigRecord& r);

// The search over `space` (which must be built on the session's model, machine and workload).
// Polls the cancellation token (core/cancellation.hpp) before every batch: throws Cancelled
// when it is set, so a cancelled search returns nothing.
TESSERA_API SearchResult run_search(const Session& session, const GridSpace& space,
                                    const SearchStrategy& strategy, const SearchOptions& options = {});
// The same over the session's scenario sweep.
TESSERA_API SearchResult run_search(const Session& session, const SearchStrategy& strategy,
                                    const SearchOptions& options = {});

}  // namespace tessera
