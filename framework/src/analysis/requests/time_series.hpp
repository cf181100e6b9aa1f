#pragma once
// KV occupancy and queue depth over a simulation's time, for charts (docs/report.md "Request
// simulation"): the run from 0 s to its last event cut into at most `capacity` bins of equal
// width, each holding the time-weighted mean and the peak of both. The first bin width is
// `initial_width_s`; when the run outgrows capacity x width, neighbouring bins are merged in
// pairs (means weighted by the time each covered, peaks the larger) and the width doubles. So
// the memory is bounded whatever the run's length, and the bins depend only on the events
// (deterministic: the same run gives the same bins).
#include <cstddef>
#include <vector>

#include "tessera/export.hpp"

namespace tessera::requests {

// One bin: [start_s, start_s + width_s) (the last one may be covered only in part).
struct TimeSample {
  double start_s = 0;
  double width_s = 0;
  double kv_occupancy_mean = 0;  // used / total KV blocks, all replicas, time-weighted
  double kv_occupancy_peak = 0;
  double queue_depth_mean = 0;  // requests waiting, all replicas, time-weighted
  double queue_depth_peak = 0;
};

inline constexpr std::size_t kTimeSeriesPoints = 512;

class TESSERA_API TimeSeries {
 public:
  explicit TimeSeries(std::size_t capacity = kTimeSeriesPoints, double initial_width_s = 1e-3);

  // The state held over [from_s, to_s) (to_s >= from_s >= 0, calls in time order).
  void add(double from_s, double to_s, double kv_occupancy, double queue_depth);
  // The bins covered so far, in time order (at most `capacity`).
  std::vector<TimeSample> samples() const;
  double width_s() const { return width_; }

 private:
  struct Bin {
    double covered = 0, kv_area = 0, queue_area = 0, kv_peak = 0, queue_peak = 0;
  };
  void halve();  // merges pairs: the width doubles

  std::size_t capacity_;
  double width_;
  std::vector<Bin> bins_;  // bins_[i] covers [i width, (i + 1) width)
};

}  // namespace tessera::requests
