#pragma once
// The serving study (`tessera serve`, docs/physics.md §12 "Serving"): every valid configuration
// of the scenario's parallelism sweep whose PEs are within the budget (serving.max_pes) at
// every serving point (sweep.serving.batch × sweep.serving.token_budget), each evaluated by
// eval/serving_evaluator.hpp on N threads (eval/batch_evaluator.hpp), and summarised: counts,
// the best point under the SLO by the first objective, the Pareto frontier over the
// objectives among the points that meet the SLO, the top N, and — when no point meets the SLO
// — the closest miss.
//
// Deterministic: each (configuration, point) is evaluated into a slot of its own and the slots
// are folded in the study's order (configurations in the grid's order, then the points, batch
// major), so the result and the streamed rows are identical for any thread count.
// Memory flat: the study keeps compact records of the top N, the frontier and the closest
// miss only; every row goes to a callback as it comes (`--csv`).
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/serving/serving_points.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "eval/serving_evaluator.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// One evaluated serving point, compact (SI units): what the reports show of it.
// One serving point (a configuration at a batch and token budget), its totals: the host's one
// type for it (docs/architecture.md "One evaluated configuration"). The full record extends it
// (ServeRecord), `--json`'s points list extends it by the two times (ServePoint); plugins see
// the SDK's ServingPoint (the batch and token budget) and ServingMetrics.
struct ServedPoint {
  std::uint64_t key = 0;  // position in the study's order: configuration index × points + point index
  ParallelConfig config;
  ServingPoint point;
  // The point's geometric acceptance rate (serving.speculative.acceptance or
  // sweep.serving.acceptance; < 0: a table by position, or no speculation).
  double acceptance = -1;
  std::int64_t pes = 0;              // all replicas
  std::int64_t replicas = 0;         // dp
  double tokens_per_s_per_pe = 0;    // tokens_per_s / pes
  double tokens_per_s_per_user = 0;  // 1 / TPOT
  std::array<double, kMaxObjectives> objectives{};
  bool feasible = false;  // runnable and within the SLO
};

struct ServeRecord : ServedPoint {
  ServingMetrics metrics;
  ServingVerdict verdict = ServingVerdict::invalid;
  bool runnable = false;  // valid, supported, fits, finite (the SLO aside)
  SloMetric slo_miss = SloMetric::none;
  double slo_value = 0, slo_limit = 0, slo_ratio = 0;  // ServingEvaluation's
  InvalidReason invalid_reason = InvalidReason::none;
  double tokens_per_s = 0;  // all replicas
  // The values on the study's axes (ServeResult::axes: the session's objectives, or without
  // objectives tokens/s/PE and tokens/s/user), as measured; score = the first, oriented so
  // that lower is better.
  std::array<double, kMaxObjectives> axis_values{};
  double score = 0;
  // The other axes' values, oriented as `score` (lower is better), axes[1..axes): the ranking's
  // ties (serve_rank_less).
  std::array<double, kMaxObjectives> tie_values{};
  std::size_t axes = 0;
  double weights_bytes = 0, kv_bytes = 0, used_bytes = 0, budget_bytes = 0;  // per PE at the peak KV
  std::string reason;  // why not feasible ("" when it is); set on the kept records and streamed rows
};

// One runnable serving point as `--json`'s `points` list holds it (the totals and its times).
struct ServePoint : ServedPoint {
  double ttft_s = 0, tpot_s = 0;
};

struct ServeCounts {
  std::uint64_t enumerated = 0;      // grid points
  std::uint64_t configurations = 0;  // valid canonical configurations of the grid
  std::uint64_t over_budget = 0;     // of those, with more PEs than the budget (not evaluated)
  // Of those, what `framework:` cannot run, per ServingStackMiss (not evaluated, before the budget).
  std::array<std::uint64_t, kStackMisses> stack_dropped{};
  std::uint64_t stack_dropped_total() const {
    std::uint64_t n = 0;
    for (auto v : stack_dropped) n += v;
    return n;
  }
  std::uint64_t points = 0;      // serving points per configuration (batch × token budget)
  std::uint64_t evaluated = 0;   // (configurations - over_budget) × points
  std::uint64_t runnable = 0;    // evaluated and runnable (the SLO aside)
  std::uint64_t within_slo = 0;  // runnable and within the SLO
  // Per reason, the first in ServingVerdict's order; with within_slo they add up to evaluated.
  std::uint64_t invalid = 0, unsupported = 0, kv_overflow = 0, non_finite = 0, slo_miss = 0;
};

struct ServeStudyOptions {
  unsigned threads = 0;  // 0 = std::thread::hardware_concurrency()
  std::size_t top = 20;
  // The PE budget of one configuration (all replicas): -1 = the scenario's serving.max_pes;
  // 0 = none.
  std::int64_t max_pes = -1;
  // Progress after every batch of points, on the calling thread: (points evaluated, points
  // to evaluate, "serving points").
  ProgressCallback on_progress;
  // Every evaluated point, reason included, in the study's order, on the calling thread
  // (`tessera serve --csv`).
  std::function<void(const ServeRecord&)> on_point;
  std::size_t batch = 8192;  // points evaluated per round (memory: one compact record each)
  // At most this many runnable points kept as ServeResult::points: all of them when they are
  // no more, else a seeded reservoir sample (core/statistics/reservoir.hpp). 0 = none.
  std::size_t points = 0;
  // The study's plan (docs/architecture.md "Studies: plan, work units, merge"): the points in
  // work units of this many (0 = kDefaultServeUnit), computed by `executor` (nullptr: a
  // ThreadExecutor of `threads`) and merged exactly in the study's order. The result and the
  // rows are the same for every unit size, executor and thread count.
  std::uint64_t unit_size = 0;
  Executor* executor = nullptr;
  // Every process of the executor merges the study (UnitCodec::everywhere): a capacity search
  // goes on from its ranking on every MPI rank.
  bool merged_everywhere = false;
};

// Serving points per work unit (ServeStudyOptions::unit_size's default): a unit's buffered
// rows (--csv) and points stay under a few MB.
inline constexpr std::uint64_t kDefaultServeUnit = 16384;

// How the records are ranked and the frontier is drawn.
struct ServeAxis {
  enum class Source : std::uint8_t { objective, tokens_per_s_per_pe, tokens_per_s_per_user };
  Source source = Source::objective;
  std::size_t objective = 0;  // Source::objective: the index among the session's objectives
  std::string name;           // the objective's, or "tokens_per_s_per_pe" / "tokens_per_s_per_user"
  Direction direction = Direction::maximize;
  std::string unit;
};

// The axes a serving study ranks and spans its frontier by: the session's objectives, or without
// them tokens/s/PE and tokens/s/user.
TESSERA_API std::vector<ServeAxis> serve_study_axes(const std::vector<ObjectiveSlot>& objectives);

struct ServeResult {
  ServeCounts counts;
  std::int64_t max_pes = 0;               // the budget applied (0 = none)
  std::vector<ObjectiveSlot> objectives;  // the session's
  std::vector<ServeAxis> axes;            // what ranks (the first) and spans the frontier
  // Best first: score, then the next axes in turn, then fewer PEs, then the study's order
  // (serve_rank_less). top[0] is the best, a frontier point.
  std::vector<ServeRecord> top;
  // The non-dominated points among those within the SLO, in the ranking's order.
  std::vector<ServeRecord> frontier;
  // No point within the SLO: the runnable point with the smallest slo_ratio (ties: the ranking).
  std::optional<ServeRecord> closest_miss;
  // The most tokens/s/PE of any point within the SLO (0: none), whatever ranks the study.
  double best_tokens_per_s_per_pe = 0;
  // ServeStudyOptions::points, in the study's order; points_seen runnable points were offered,
  // points_sampled when more than points.size().
  std::vector<ServePoint> points;
  std::uint64_t points_seen = 0;
  bool points_sampled = false;
  const ServeRecord* best() const { return top.empty() ? nullptr : &top.front(); }
};

// Fills `r` (reason aside) from an evaluation at study position `key`, its point's geometric
// acceptance rate `acceptance` (serving_points; < 0: none).
TESSERA_API void fill_serve_record(const ServingEvaluation& e, const std::vector<ServeAxis>& axes,
                                   std::uint64_t key, double acceptance, ServeRecord& r);
// Why `r` is not feasible ("" when it is), serving_reason()'s text.
TESSERA_API std::string serve_record_reason(const Session& session, const ServeRecord& r);

// The ranking's order, a before b: the first axis (score), then each next axis in turn (so the
// best is never dominated by a frontier point), then fewer PEs, then the study's order.
TESSERA_API bool serve_rank_less(const ServeRecord& a, const ServeRecord& b);

// The study. The session must be in mode serve. Polls the cancellation token between batches
// (throws Cancelled). A plugin's failure is rethrown naming the configuration and the point.
TESSERA_API ServeResult run_serve_study(const Session& session, const ServeStudyOptions& options = {});

}  // namespace tessera
