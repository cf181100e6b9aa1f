#pragma once
// What a request simulation measures, shared by the aggregated engine (request_sim.cpp) and the
// disaggregated one (disagg_sim.cpp): every finished request's TTFT, TPOT, end-to-end latency and
// queueing delay, every inter-token gap, goodput, and time averages of levels (KV occupancy,
// queue depth) over the measurement window (docs/physics.md §12.5 "What is measured").
//
// The window runs from the first measured arrival to the last measured finish: the levels are
// integrated from the first measured arrival on, and the integrals are kept at each event where a
// measured request finished, so that the kept ones close at the last measured finish.
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/requests/metric_stats.hpp"
#include "analysis/requests/replica.hpp"
#include "analysis/requests/request_stream.hpp"
#include "analysis/requests/slo_check.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

struct SimResult;

class TESSERA_API SimRecorder {
 public:
  // `slo`: the targets checked at the end and whose per-request bounds count goodput
  // (slo_check.hpp); `levels`: how many time-averaged levels the engine reports at each event.
  SimRecorder(std::uint64_t warmup, std::uint64_t measured, bool exact, std::vector<SloTarget> slo,
              std::size_t levels);

  // A request entered the system (routed to an engine) at its arrival.
  void arrived(const Request& r);
  // `count` inter-token gaps of `gap_s`, the first of them `r`'s.
  void gap(const Request& r, double gap_s, std::uint64_t count);
  // A request finished (measured or not).
  void done(const RequestOutcome& o);

  // The event loop: before moving from `now_s` to `next_s`, the levels that hold in between.
  void advance(double now_s, double next_s, const std::vector<double>& levels);
  // The levels' peaks count from the first measured arrival: `levels` at `now_s`.
  void peak(double now_s, const std::vector<double>& levels);
  // Called after the finishes of one event were applied: keeps the integrals when a measured
  // request finished at it.
  void end_event();

  // The latency summaries, throughput, goodput, the SLO checks and the first two levels'
  // averages and the first level's peak (KV occupancy, queue depth) into `out`.
  void fill(SimResult& out) const;
  double window_s() const;
  // How an engine may pass equal token gaps together (replica.hpp): by measurement batch.
  GapGrouping gap_grouping() const;
  // Latency values held one by one (exact mode; 0 with sketches: memory flat in the requests).
  std::size_t kept() const;
  // Level `i`'s time average over the window and its peak.
  double level_mean(std::size_t i) const;
  double level_peak(std::size_t i) const;

 private:
  std::uint64_t warmup_, measured_;
  MetricStats ttft_, tpot_, itl_, e2e_, queue_;
  std::vector<SloTarget> slo_;
  RequestBounds bounds_;
  double first_measured_arrival_;
  double last_measured_finish_ = 0;
  std::uint64_t good_count_ = 0, output_tokens_ = 0, measured_done_ = 0;
  bool measured_finished_ = false;
  std::vector<double> area_, kept_area_, peak_, kept_peak_;
};

}  // namespace tessera::requests
