#include "analysis/requests/request_sim.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "analysis/requests/sim_recorder.hpp"
#include "host/guarded_plugins.hpp"

namespace tessera::requests {

namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// The replicas as a scheduler plugin's router sees them.
class Loads final : public ReplicaLoads {
 public:
  Loads(const std::vector<Replica>& r, std::int64_t blocks) : r_(r), blocks_(blocks) {}
  std::size_t count() const override { return r_.size(); }
  std::size_t outstanding(std::size_t i) const override { return at(i).outstanding(); }
  std::int64_t free_blocks(std::size_t i) const override { return blocks_ - at(i).used_blocks(); }

 private:
  const Replica& at(std::size_t i) const {
    if (i >= r_.size())
      throw std::out_of_range("replica " + std::to_string(i) + " of " + std::to_string(r_.size()));
    return r_[i];
  }
  const std::vector<Replica>& r_;
  std::int64_t blocks_;
};

// Conversations' later turns, sent at their time (earliest first, then in order drawn).
class FollowUps {
 public:
  void push(const Request& r) {
    heap_.push_back(r);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  double next_s() const { return heap_.empty() ? kNever : heap_.front().arrival_s; }
  Request pop() {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    Request r = heap_.back();
    heap_.pop_back();
    return r;
  }

 private:
  static bool later(const Request& a, const Request& b) {
    return a.arrival_s > b.arrival_s || (a.arrival_s == b.arrival_s && a.id > b.id);
  }
  std::vector<Request> heap_;
};

// Replica `r`'s preemptions, swapped blocks, rule events and iterations added to `out`'s.
void add_totals(const Replica& r, SimResult& out) {
  add_replica_totals(r, out.preemptions, out.swapped_blocks, out.rule_events, out.iterations);
  out.cache.add(r.cache_figures());
}

// The replica a policy's router picks for `r`, or `fallback` when it leaves the choice (-1).
std::size_t policy_route(const SchedulerPolicy& p, const Request& r, const Loads& loads,
                         std::size_t fallback) {
  const std::int64_t i = p.route(sched_sequence(r), loads);
  if (i == -1) return fallback;
  if (i < 0 || static_cast<std::size_t>(i) >= loads.count())
    throw_plugin_error(p, "scheduler",
                       "route returned replica " + std::to_string(i) + " for request " +
                           std::to_string(r.id) + "; expected 0 to " + std::to_string(loads.count() - 1) +
                           ", or -1 for the scenario's router");
  return static_cast<std::size_t>(i);
}

// What an engine cannot run refused (std::invalid_argument).
void check_options(const SimOptions& opts) {
  const EngineLimits& lim = opts.limits;
  if (lim.kv_blocks <= 0 || lim.block_tokens <= 0)
    throw std::invalid_argument("request simulation: the replica has no KV blocks");
  if (lim.max_sequences <= 0)
    throw std::invalid_argument("request simulation: max sequences must be positive");
  if (opts.replicas <= 0) throw std::invalid_argument("request simulation: replicas must be positive");
}

// The replica the scenario's router sends the next request to (round robin advances its count).
std::size_t pick_replica(Router router, const std::vector<Replica>& replicas, std::uint64_t& round_robin) {
  if (router == Router::round_robin) return static_cast<std::size_t>(round_robin++ % replicas.size());
  std::size_t target = 0;
  for (std::size_t i = 1; i < replicas.size(); ++i)
    if (replicas[i].outstanding() < replicas[target].outstanding()) target = i;
  return target;
}

}  // namespace

SimResult simulate(const StreamSpec& spec, StepTimer& timer, const SimOptions& opts) {
  const EngineLimits& lim = opts.limits;
  check_options(opts);
  RequestStream stream(spec);
  if (spec.warmup >= stream.total())
    throw std::invalid_argument("request simulation: the warm-up leaves no request to measure");
  StepMemo steps(timer, opts.memoize);
  std::vector<Replica> replicas;
  replicas.reserve(static_cast<std::size_t>(opts.replicas));
  for (std::int64_t i = 0; i < opts.replicas; ++i) replicas.emplace_back(lim, steps, i);

  const std::uint64_t total = stream.total();
  const std::uint64_t measured = total - spec.warmup;
  SimRecorder rec(spec.warmup, measured, opts.exact, opts.slo, 2);
  for (Replica& r : replicas) r.set_gap_grouping(rec.gap_grouping());
  SimResult out;
  const std::int64_t kv_capacity_tokens = lim.kv_blocks * lim.block_tokens;
  std::uint64_t round_robin = 0;
  auto on_gap = [&](const Request& r, double gap, std::uint64_t count) { rec.gap(r, gap, count); };
  Request pending;
  bool has_pending = false;
  const Loads loads(replicas, lim.kv_blocks);
  auto route = [&](const Request& r) {
    if (never_fits(lim, r, kv_capacity_tokens)) {  // never fits: the engine refuses it
      ++out.rejected;
      return false;
    }
    std::size_t target = pick_replica(opts.router, replicas, round_robin);
    if (lim.policy) target = policy_route(*lim.policy, r, loads, target);
    replicas[target].enqueue(r);
    rec.arrived(r);
    return true;
  };
  // Closed loop: a client sends its next request at `now_s`; a refused one frees it at once.
  auto send_closed = [&](double now_s) {
    Request r;
    while (stream.next_at(now_s, r))
      if (route(r)) return;
  };
  std::int64_t clients_freed = 0;  // closed loop: clients whose request finished at this event
  FollowUps turns;                 // conversations: later turns, sent at their time
  auto on_done = [&](const RequestOutcome& o) {
    if (opts.on_request) opts.on_request(o);
    rec.done(o);
    Request next;
    if (stream.conversations() && stream.next_turn(o.request, o.finish_s, next))
      turns.push(next);  // the client (closed loop) waits for its conversation's next turn
    else if (stream.closed_loop())
      ++clients_freed;
  };

  if (stream.closed_loop()) {
    for (std::int64_t c = 0; c < stream.clients(); ++c) send_closed(0);
  } else {
    has_pending = stream.next(pending);
  }

  double now = 0;
  const double total_blocks = static_cast<double>(lim.kv_blocks) * static_cast<double>(replicas.size());
  std::vector<double> levels(2, 0.0);  // KV occupancy (used / total blocks), waiting requests
  auto state = [&] {
    std::int64_t used = 0;
    std::size_t waiting = 0;
    for (const Replica& r : replicas) {
      used += r.used_blocks();
      waiting += r.waiting();
    }
    levels[0] = static_cast<double>(used) / total_blocks;
    levels[1] = static_cast<double>(waiting);
  };
  TimeSeries series;  // for charts: bounded, the whole run
  // The sinks the replicas call, made once (a lambda passed as a std::function would allocate
  // at every iteration).
  const std::function<void(const RequestOutcome&)> done_sink = on_done;
  const TokenGapSink gap_sink = on_gap;
  for (;;) {
    // Idle replicas with work start at `now` (after every event at `now` was applied).
    for (Replica& r : replicas)
      if (!r.busy() && r.outstanding() > 0) r.start(now);
    state();
    rec.peak(now, levels);
    double next_end = kNever;
    for (const Replica& r : replicas)
      if (r.busy()) next_end = std::min(next_end, r.busy_until());
    const double next_arrival = std::min(has_pending ? pending.arrival_s : kNever, turns.next_s());
    if (next_end == kNever && next_arrival == kNever) {
      check_not_stalled(replicas, lim.policy);
      break;
    }
    const double next = std::min(next_end, next_arrival);
    rec.advance(now, next, levels);
    series.add(now, next, levels[0], levels[1]);
    now = next;
    // Iterations ending at `now` first, then arrivals at `now`.
    for (Replica& r : replicas)
      if (r.busy() && r.busy_until() == now) r.finish(done_sink, gap_sink);
    rec.end_event();
    // Conversations' turns due now (a refused one ends its conversation, freeing its client).
    while (turns.next_s() == now)
      if (!route(turns.pop()) && stream.closed_loop()) ++clients_freed;
    for (; clients_freed > 0; --clients_freed) send_closed(now);
    while (has_pending && pending.arrival_s == now) {
      route(pending);
      has_pending = stream.next(pending);
    }
  }
  out.end_s = now;
  out.sent = stream.sent();
  out.measured = measured;
  rec.fill(out);
  for (const Replica& r : replicas) add_totals(r, out);
  out.cache.on = lim.prefix_caching;
  out.step_shapes = steps.shapes();
  out.series = series.samples();
  out.values_kept = rec.kept();
  return out;
}

}  // namespace tessera::requests
