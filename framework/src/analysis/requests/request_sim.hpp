#pragma once
// The request-level serving simulation (docs/physics.md §12.5): a request stream offered to the
// dp replicas of one configuration through a router, each replica an engine (replica.hpp) whose
// iterations are timed by the host's StepTimer (step_memo.hpp), events in time order. Returns
// the latency percentiles as benchmarks report them, throughput, goodput, KV occupancy, queue
// depth and preemptions, and, when asked, every request's outcome. One simulation is one work
// unit of a study: single-threaded, deterministic for a seed.
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "analysis/requests/metric_stats.hpp"
#include "analysis/requests/replica.hpp"
#include "analysis/requests/request_stream.hpp"
#include "analysis/requests/sim_recorder.hpp"
#include "analysis/requests/slo_check.hpp"
#include "analysis/requests/time_series.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera::requests {

struct SimOptions {
  EngineLimits limits;
  std::int64_t replicas = 1;
  Router router = Router::round_robin;
  // serving.slo's targets: each checked (SimResult::slo); goodput counts the requests within
  // the per-request bounds they imply (slo_check.hpp).
  std::vector<SloTarget> slo;
  bool exact = false;   // keep every value (exact percentiles); else sketches (within 0.5 %)
  bool memoize = true;  // StepMemo's shape grid (false: every iteration timed exactly)
  // Called with every finished request (measured or not), in order of finishing: `--requests`.
  std::function<void(const RequestOutcome&)> on_request;
};

// A disaggregated simulation's pool (analysis/requests/disagg_sim.hpp): time averages over the
// measurement window, as SimResult's whole-system ones.
struct PoolFigures {
  std::int64_t replicas = 0;  // instances x dp
  double kv_occupancy_mean = 0, kv_occupancy_peak = 0;
  double queue_depth_mean = 0;  // requests waiting for the pool (decode: for its KV, then a batch place)
  std::int64_t preemptions = 0;
  std::uint64_t iterations = 0;
};

// What a disaggregated simulation measures beyond the aggregated one.
struct DisaggFigures {
  PoolFigures prefill, decode;
  MetricSummary transfer;       // measured requests: the KV transfer's time after its start (s)
  MetricSummary transfer_wait;  // measured requests: prefill end to the transfer's start (decode KV) (s)
};

struct SimResult {
  std::uint64_t sent = 0, measured = 0, rejected = 0;  // rejected: longer than the replica's KV
  MetricSummary ttft, tpot, itl, e2e, queue;
  double window_s = 0;             // first measured arrival to last measured finish
  double output_tokens_per_s = 0;  // measured requests' output tokens / window
  double requests_per_s = 0;
  double goodput_requests_per_s = 0;  // measured requests within every per-request bound / window
  double kv_occupancy_mean = 0;       // used / total blocks, time-weighted over the window, mean of replicas
  double kv_occupancy_peak = 0;
  double queue_depth_mean = 0;  // waiting requests, time-weighted over the window, sum of replicas
  std::int64_t preemptions = 0;
  std::int64_t swapped_blocks = 0;      // swap preemption: blocks copied out and in, all replicas
  RuleEvents rule_events;               // what the scheduling rules did, all replicas
  CacheFigures cache;                   // prefix caching: hits and loads, all replicas
  std::size_t step_shapes = 0;          // distinct iteration shapes timed
  std::uint64_t iterations = 0;         // engine iterations, all replicas
  double end_s = 0;                     // the last event
  std::optional<DisaggFigures> disagg;  // a disaggregated simulation (disagg_sim.hpp)
  std::vector<SloCheck> slo;            // SimOptions::slo's targets, checked, in order
  RequestBounds request_bounds;         // what a request met to count towards goodput
  bool slo_met() const {
    for (const SloCheck& c : slo)
      if (!c.met) return false;
    return true;
  }
  // KV occupancy and queue depth over the whole run (warm-up included), at most
  // kTimeSeriesPoints bins of equal width (time_series.hpp): for charts.
  std::vector<TimeSample> series;
  std::size_t values_kept = 0;  // latency values held for exact percentiles (0 with sketches)
};

// Runs `stream` through opts.replicas replicas timed by `timer` (the calling thread's).
// Throws std::invalid_argument for limits an engine cannot run (no KV blocks, no budget for a
// token, no sequences).
TESSERA_API SimResult simulate(const StreamSpec& stream, StepTimer& timer, const SimOptions& opts);

}  // namespace tessera::requests
