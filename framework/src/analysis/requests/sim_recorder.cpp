#include "analysis/requests/sim_recorder.hpp"

#include <algorithm>
#include <limits>

#include "analysis/requests/request_sim.hpp"

namespace tessera::requests {

SimRecorder::SimRecorder(std::uint64_t warmup, std::uint64_t measured, bool exact, std::vector<SloTarget> slo,
                         std::size_t levels)
    : warmup_(warmup),
      measured_(measured),
      ttft_(measured, exact),
      tpot_(measured, exact),
      itl_(measured, exact),
      e2e_(measured, exact),
      queue_(measured, exact),
      slo_(std::move(slo)),
      bounds_(request_bounds(slo_)),
      first_measured_arrival_(std::numeric_limits<double>::infinity()),
      area_(levels, 0.0),
      kept_area_(levels, 0.0),
      peak_(levels, 0.0),
      kept_peak_(levels, 0.0) {}

void SimRecorder::arrived(const Request& r) {
  if (r.id >= warmup_) first_measured_arrival_ = std::min(first_measured_arrival_, r.arrival_s);
}

void SimRecorder::gap(const Request& r, double gap_s, std::uint64_t count) {
  if (r.id >= warmup_) itl_.add(r.id - warmup_, gap_s, count);
}

void SimRecorder::done(const RequestOutcome& o) {
  const Request& r = o.request;
  if (r.id < warmup_) return;
  const std::uint64_t k = r.id - warmup_;
  const double t_first = o.first_token_s - r.arrival_s;
  const double t_e2e = o.finish_s - r.arrival_s;
  ttft_.add(k, t_first);
  e2e_.add(k, t_e2e);
  queue_.add(k, o.first_scheduled_s - r.arrival_s);
  double t_tpot = 0;
  if (r.output > 1) {
    t_tpot = (t_e2e - t_first) / static_cast<double>(r.output - 1);
    tpot_.add(k, t_tpot);
  }
  output_tokens_ += static_cast<std::uint64_t>(r.output);
  ++measured_done_;
  measured_finished_ = true;
  last_measured_finish_ = std::max(last_measured_finish_, o.finish_s);
  if (bounds_.good(t_first, t_tpot, t_e2e, r.output)) ++good_count_;
}

void SimRecorder::advance(double now_s, double next_s, const std::vector<double>& levels) {
  if (next_s > first_measured_arrival_) {
    const double from = std::max(now_s, first_measured_arrival_);
    for (std::size_t i = 0; i < area_.size(); ++i) area_[i] += levels[i] * (next_s - from);
  }
}

void SimRecorder::peak(double now_s, const std::vector<double>& levels) {
  if (now_s >= first_measured_arrival_)
    for (std::size_t i = 0; i < peak_.size(); ++i) peak_[i] = std::max(peak_[i], levels[i]);
}

void SimRecorder::end_event() {
  if (!measured_finished_) return;
  kept_area_ = area_;
  kept_peak_ = peak_;
  measured_finished_ = false;
}

std::size_t SimRecorder::kept() const {
  return ttft_.kept() + tpot_.kept() + itl_.kept() + e2e_.kept() + queue_.kept();
}

GapGrouping SimRecorder::gap_grouping() const {
  return GapGrouping{warmup_, measured_, batch_count(static_cast<std::size_t>(measured_))};
}

double SimRecorder::window_s() const { return last_measured_finish_ - first_measured_arrival_; }

double SimRecorder::level_mean(std::size_t i) const {
  const double w = window_s();
  return w > 0 ? kept_area_[i] / w : 0;
}

double SimRecorder::level_peak(std::size_t i) const { return kept_peak_[i]; }

void SimRecorder::fill(SimResult& out) const {
  out.ttft = ttft_.summary();
  out.tpot = tpot_.summary();
  out.itl = itl_.summary();
  out.e2e = e2e_.summary();
  out.queue = queue_.summary();
  out.window_s = window_s();
  if (out.window_s > 0) {
    out.output_tokens_per_s = static_cast<double>(output_tokens_) / out.window_s;
    out.requests_per_s = static_cast<double>(measured_done_) / out.window_s;
    out.goodput_requests_per_s = static_cast<double>(good_count_) / out.window_s;
    out.kv_occupancy_mean = level_mean(0);
    out.queue_depth_mean = level_mean(1);
  }
  out.kv_occupancy_peak = level_peak(0);
  out.slo = check_slo(slo_, ttft_, tpot_, e2e_);
  out.request_bounds = bounds_;
}

}  // namespace tessera::requests
