#include "analysis/requests/request_sim.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace tessera::requests {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

}  // namespace

SimResult simulate(const StreamSpec& spec, StepTimer& timer, const SimOptions& opts) {
  const EngineLimits& lim = opts.limits;
  if (lim.kv_blocks <= 0 || lim.block_tokens <= 0)
    throw std::invalid_argument("request simulation: the replica has no KV blocks");
  if (lim.max_sequences <= 0)
    throw std::invalid_argument("request simulation: max sequences must be positive");
  if (opts.replicas <= 0) throw std::invalid_argument("request simulation: replicas must be positive");
  RequestStream stream(spec);
  if (spec.warmup >= stream.total())
    throw std::invalid_argument("request simulation: the warm-up leaves no request to measure");
  StepMemo steps(timer, opts.memoize);
  std::vector<Replica> replicas;
  replicas.reserve(static_cast<std::size_t>(opts.replicas));
  for (std::int64_t i = 0; i < opts.replicas; ++i) replicas.emplace_back(lim, steps, i);

  const std::uint64_t total = stream.total();
  const std::uint64_t measured = total - spec.warmup;
  MetricStats ttft(measured, opts.exact), tpot(measured, opts.exact), itl(measured, opts.exact),
      e2e(measured, opts.exact), queue(measured, opts.exact);
  SimResult out;
  const std::int64_t kv_capacity_tokens = lim.kv_blocks * lim.block_tokens;
  double first_measured_arrival = kNever, last_measured_finish = 0;
  std::uint64_t good = 0, output_tokens = 0;
  std::uint64_t round_robin = 0;
  std::uint64_t measured_done = 0;
  bool measured_finished = false;  // a measured request finished at the current event
  auto on_gap = [&](const Request& r, double gap, std::uint64_t count) {
    if (r.id >= spec.warmup) itl.add(r.id - spec.warmup, gap, count);
  };
  Request pending;
  bool has_pending = false;
  auto route = [&](const Request& r) {
    if (r.input + r.output > kv_capacity_tokens) {  // never fits: the engine refuses it
      ++out.rejected;
      return false;
    }
    std::size_t target = 0;
    if (opts.router == Router::round_robin) {
      target = static_cast<std::size_t>(round_robin++ % replicas.size());
    } else {
      for (std::size_t i = 1; i < replicas.size(); ++i)
        if (replicas[i].outstanding() < replicas[target].outstanding()) target = i;
    }
    replicas[target].enqueue(r);
    if (r.id >= spec.warmup) first_measured_arrival = std::min(first_measured_arrival, r.arrival_s);
    return true;
  };
  // Closed loop: a client sends its next request at `now_s`; a refused one frees it at once.
  auto send_closed = [&](double now_s) {
    Request r;
    while (stream.next_at(now_s, r))
      if (route(r)) return;
  };
  std::int64_t clients_freed = 0;  // closed loop: clients whose request finished at this event
  auto on_done = [&](const RequestOutcome& o) {
    const Request& r = o.request;
    if (opts.on_request) opts.on_request(o);
    if (r.id >= spec.warmup) {
      const std::uint64_t k = r.id - spec.warmup;
      const double t_first = o.first_token_s - r.arrival_s;
      const double t_e2e = o.finish_s - r.arrival_s;
      ttft.add(k, t_first);
      e2e.add(k, t_e2e);
      queue.add(k, o.first_scheduled_s - r.arrival_s);
      double t_tpot = 0;
      if (r.output > 1) {
        t_tpot = (t_e2e - t_first) / static_cast<double>(r.output - 1);
        tpot.add(k, t_tpot);
      }
      output_tokens += static_cast<std::uint64_t>(r.output);
      ++measured_done;
      measured_finished = true;
      last_measured_finish = std::max(last_measured_finish, o.finish_s);
      const bool ok = (opts.slo.ttft_s <= 0 || t_first <= opts.slo.ttft_s) &&
                      (opts.slo.tpot_s <= 0 || r.output <= 1 || t_tpot <= opts.slo.tpot_s);
      if (ok) ++good;
    }
    if (stream.closed_loop()) ++clients_freed;
  };

  if (stream.closed_loop()) {
    for (std::int64_t c = 0; c < stream.clients(); ++c) send_closed(0);
  } else {
    has_pending = stream.next(pending);
  }

  double now = 0;
  const double total_blocks = static_cast<double>(lim.kv_blocks) * static_cast<double>(replicas.size());
  auto state = [&](double& kv, double& queued) {
    std::int64_t used = 0;
    std::size_t waiting = 0;
    for (const Replica& r : replicas) {
      used += r.used_blocks();
      waiting += r.waiting();
    }
    kv = static_cast<double>(used) / total_blocks;
    queued = static_cast<double>(waiting);
  };
  // KV occupancy and queue depth integrated over the window: from the first measured arrival,
  // the areas run on; at each finish of a measured request they are kept, so that the last
  // kept ones close at the last measured finish.
  double area_kv = 0, area_queue = 0, peak_kv = 0;
  double kept_kv = 0, kept_queue = 0, kept_peak = 0;
  TimeSeries series;  // for charts: bounded, the whole run
  for (;;) {
    // Idle replicas with work start at `now` (after every event at `now` was applied).
    for (Replica& r : replicas)
      if (!r.busy() && r.outstanding() > 0) r.start(now);
    double kv = 0, queued = 0;
    state(kv, queued);
    if (now >= first_measured_arrival) peak_kv = std::max(peak_kv, kv);
    double next_end = kNever;
    for (const Replica& r : replicas)
      if (r.busy()) next_end = std::min(next_end, r.busy_until());
    const double next_arrival = has_pending ? pending.arrival_s : kNever;
    if (next_end == kNever && next_arrival == kNever) {
      // Nothing runs and nothing comes: work left waiting can never be scheduled.
      for (const Replica& r : replicas)
        if (r.outstanding() > 0)
          throw std::runtime_error("request simulation: a replica holds requests it can never schedule");
      break;
    }
    const double next = std::min(next_end, next_arrival);
    if (next > first_measured_arrival) {
      const double from = std::max(now, first_measured_arrival);
      area_kv += kv * (next - from);
      area_queue += queued * (next - from);
    }
    series.add(now, next, kv, queued);
    now = next;
    // Iterations ending at `now` first, then arrivals at `now`.
    measured_finished = false;
    for (Replica& r : replicas)
      if (r.busy() && r.busy_until() == now) r.finish(on_done, on_gap);
    if (measured_finished) {
      kept_kv = area_kv;
      kept_queue = area_queue;
      kept_peak = peak_kv;
    }
    for (; clients_freed > 0; --clients_freed) send_closed(now);
    while (has_pending && pending.arrival_s == now) {
      route(pending);
      has_pending = stream.next(pending);
    }
  }
  out.end_s = now;
  out.sent = stream.sent();
  out.measured = measured;
  out.ttft = ttft.summary();
  out.tpot = tpot.summary();
  out.itl = itl.summary();
  out.e2e = e2e.summary();
  out.queue = queue.summary();
  out.window_s = last_measured_finish - first_measured_arrival;
  if (out.window_s > 0) {
    out.output_tokens_per_s = static_cast<double>(output_tokens) / out.window_s;
    out.requests_per_s = static_cast<double>(measured_done) / out.window_s;
    out.goodput_requests_per_s = static_cast<double>(good) / out.window_s;
    out.kv_occupancy_mean = kept_kv / out.window_s;
    out.queue_depth_mean = kept_queue / out.window_s;
  }
  out.kv_occupancy_peak = kept_peak;
  for (const Replica& r : replicas) {
    out.preemptions += r.preemptions();
    out.iterations += r.iterations();
  }
  out.step_shapes = steps.shapes();
  out.series = series.samples();
  out.values_kept = ttft.kept() + tpot.kept() + itl.kept() + e2e.kept() + queue.kept();
  return out;
}

}  // namespace tessera::requests
