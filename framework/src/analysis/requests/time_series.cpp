#include "analysis/requests/time_series.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tessera::requests {

TimeSeries::TimeSeries(std::size_t capacity, double initial_width_s)
    : capacity_(capacity), width_(initial_width_s) {
  if (capacity_ < 2 || capacity_ % 2 != 0)
    throw std::invalid_argument("time series: the capacity must be even and at least 2");
  if (!(initial_width_s > 0)) throw std::invalid_argument("time series: the bin width must be positive");
  bins_.reserve(capacity_);
}

void TimeSeries::halve() {
  std::vector<Bin> merged((bins_.size() + 1) / 2);
  for (std::size_t i = 0; i < bins_.size(); ++i) {
    Bin& m = merged[i / 2];
    const Bin& b = bins_[i];
    m.covered += b.covered;
    m.kv_area += b.kv_area;
    m.queue_area += b.queue_area;
    m.kv_peak = std::max(m.kv_peak, b.kv_peak);
    m.queue_peak = std::max(m.queue_peak, b.queue_peak);
  }
  bins_ = std::move(merged);
  width_ *= 2;
}

void TimeSeries::add(double from_s, double to_s, double kv_occupancy, double queue_depth) {
  if (!(to_s > from_s)) return;  // an instant holds no time
  // Most calls fall inside the last bin begun: [L width, (L + 1) width) holds [from_s, to_s).
  if (!bins_.empty()) {
    const double lo = width_ * static_cast<double>(bins_.size() - 1);
    const double hi = width_ * static_cast<double>(bins_.size());
    if (from_s >= lo && to_s <= hi) {
      Bin& b = bins_.back();
      const double dt = to_s - from_s;
      b.covered += dt;
      b.kv_area += kv_occupancy * dt;
      b.queue_area += queue_depth * dt;
      b.kv_peak = std::max(b.kv_peak, kv_occupancy);
      b.queue_peak = std::max(b.queue_peak, queue_depth);
      return;
    }
  }
  while (to_s > width_ * static_cast<double>(capacity_)) halve();
  double t = from_s;
  while (t < to_s) {
    auto i = std::min(static_cast<std::size_t>(std::floor(t / width_)), capacity_ - 1);
    if (i + 1 < capacity_ && width_ * static_cast<double>(i + 1) <= t) ++i;  // t / width rounded down
    if (bins_.size() <= i) bins_.resize(i + 1);
    const bool last = i == capacity_ - 1;
    const double end = last ? to_s : std::min(to_s, width_ * static_cast<double>(i + 1));  // end > t
    const double dt = end - t;
    Bin& b = bins_[i];
    b.covered += dt;
    b.kv_area += kv_occupancy * dt;
    b.queue_area += queue_depth * dt;
    b.kv_peak = std::max(b.kv_peak, kv_occupancy);
    b.queue_peak = std::max(b.queue_peak, queue_depth);
    if (last) break;
    t = end;
  }
}

std::vector<TimeSample> TimeSeries::samples() const {
  std::vector<TimeSample> out;
  out.reserve(bins_.size());
  for (std::size_t i = 0; i < bins_.size(); ++i) {
    const Bin& b = bins_[i];
    TimeSample s;
    s.start_s = width_ * static_cast<double>(i);
    s.width_s = width_;
    if (b.covered > 0) {
      s.kv_occupancy_mean = b.kv_area / b.covered;
      s.queue_depth_mean = b.queue_area / b.covered;
    }
    s.kv_occupancy_peak = b.kv_peak;
    s.queue_depth_peak = b.queue_peak;
    out.push_back(s);
  }
  return out;
}

}  // namespace tessera::requests
