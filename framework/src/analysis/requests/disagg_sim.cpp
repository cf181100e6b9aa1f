#include "analysis/requests/disagg_sim.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "analysis/requests/sim_recorder.hpp"

namespace tessera::requests {

namespace {

constexpr double kNoEvent = std::numeric_limits<double>::infinity();

// Nothing runs, nothing comes, and a pool still holds requests: the policy's error, if one
// decides (it left them), else the engine's.
[[noreturn]] void pools_stalled(const EngineLimits& prefill, const EngineLimits& decode) {
  throw_stalled(prefill.policy ? prefill.policy : decode.policy, "a replica of the prefill or decode pool");
}

void check_pool_limits(const EngineLimits& lim, std::int64_t replicas) {
  if (lim.kv_blocks <= 0 || lim.block_tokens <= 0)
    throw std::invalid_argument("request simulation: the replica has no KV blocks");
  if (lim.max_sequences <= 0)
    throw std::invalid_argument("request simulation: max sequences must be positive");
  if (replicas <= 0) throw std::invalid_argument("request simulation: replicas must be positive");
}

// A request the prefill pool finished, on its way to a decode replica.
struct HandedPrompt {
  RequestOutcome outcome;
  std::size_t prefill = 0;  // the prefill replica holding its KV
  std::int64_t blocks = 0, committed = 0;
  double ready_s = 0;                  // the prefill iteration's end
  double prefill_s = 0;                // that iteration's time
  std::int64_t batch = 1, tokens = 0;  // the prompts it finished together, their mean length
};

struct KvInFlight {
  double end_s = 0;
  std::uint64_t order = 0;  // ties: the order the transfers started
  HandedPrompt h;
  std::size_t decode = 0;
  std::int64_t blocks = 0, committed = 0;  // reserved at the decode replica
  bool operator>(const KvInFlight& o) const { return std::tie(end_s, order) > std::tie(o.end_s, o.order); }
};

}  // namespace

SimResult simulate_disaggregated(const StreamSpec& spec, StepTimer& prefill_timer, StepTimer& decode_timer,
                                 const DisaggSimOptions& opts) {
  const SimOptions& po = opts.prefill;
  check_pool_limits(po.limits, po.replicas);
  check_pool_limits(opts.decode_limits, opts.decode_replicas);
  if (!opts.transfer) throw std::invalid_argument("request simulation: no KV transfer model");
  RequestStream stream(spec);
  if (spec.warmup >= stream.total())
    throw std::invalid_argument("request simulation: the warm-up leaves no request to measure");
  StepMemo prefill_steps(prefill_timer, po.memoize), decode_steps(decode_timer, po.memoize);
  std::vector<Replica> P, D;
  P.reserve(static_cast<std::size_t>(po.replicas));
  D.reserve(static_cast<std::size_t>(opts.decode_replicas));
  for (std::int64_t i = 0; i < po.replicas; ++i)
    P.emplace_back(po.limits, prefill_steps, i, ReplicaRole::prefill);
  for (std::int64_t i = 0; i < opts.decode_replicas; ++i)
    D.emplace_back(opts.decode_limits, decode_steps, i, ReplicaRole::decode);

  const std::uint64_t measured = stream.total() - spec.warmup;
  // Levels: both pools' KV occupancy, every waiting request; then the prefill pool's KV and
  // queue, the decode pool's KV and queue.
  SimRecorder rec(spec.warmup, measured, po.exact, po.slo, 6);
  for (Replica& r : P) r.set_gap_grouping(rec.gap_grouping());
  for (Replica& r : D) r.set_gap_grouping(rec.gap_grouping());
  MetricStats transfer_stats(measured, po.exact), wait_stats(measured, po.exact);
  SimResult out;
  const std::int64_t prefill_tokens = po.limits.kv_blocks * po.limits.block_tokens;
  const std::int64_t decode_tokens = opts.decode_limits.kv_blocks * opts.decode_limits.block_tokens;
  std::uint64_t rr_prefill = 0, rr_decode = 0, transfer_order = 0;
  std::vector<std::deque<HandedPrompt>> incoming(D.size());  // per decode replica: waiting for its KV
  std::vector<std::int64_t> inbound(D.size(), 0);            // ... and those in transfer
  std::priority_queue<KvInFlight, std::vector<KvInFlight>, std::greater<>> transfers;
  std::vector<HandedPrompt> handed;  // what the prefill replica finishing now hands over

  // The sinks the replicas call are std::functions made once (a lambda passed at each call would
  // allocate at every iteration).
  const TokenGapSink on_gap = [&](const Request& r, double gap, std::uint64_t count) {
    rec.gap(r, gap, count);
  };
  std::int64_t clients_freed = 0;
  const std::function<void(const RequestOutcome&)> on_done = [&](const RequestOutcome& o) {
    if (po.on_request) po.on_request(o);
    rec.done(o);
    if (stream.closed_loop()) ++clients_freed;
  };
  for (std::size_t i = 0; i < P.size(); ++i)
    P[i].set_handoff([&handed, i](const RequestOutcome& o, std::int64_t blocks, std::int64_t committed) {
      handed.push_back(HandedPrompt{.outcome = o, .prefill = i, .blocks = blocks, .committed = committed});
    });

  auto pick = [&](const std::vector<std::size_t>& load, std::uint64_t& rr) {
    if (po.router == Router::round_robin) return static_cast<std::size_t>(rr++ % load.size());
    std::size_t target = 0;
    for (std::size_t i = 1; i < load.size(); ++i)
      if (load[i] < load[target]) target = i;
    return target;
  };
  std::vector<std::size_t> load;
  auto route = [&](const Request& r) {
    // Never fits a prefill replica's or a decode replica's KV: refused.
    if (r.input > prefill_tokens || never_fits(opts.decode_limits, r, decode_tokens)) {
      ++out.rejected;
      return false;
    }
    load.resize(P.size());
    for (std::size_t i = 0; i < P.size(); ++i) load[i] = P[i].outstanding();
    P[pick(load, rr_prefill)].enqueue(r);
    rec.arrived(r);
    return true;
  };
  auto send_closed = [&](double now_s) {
    Request r;
    while (stream.next_at(now_s, r))
      if (route(r)) return;
  };
  // The prompts prefill replica `i` finished at `now_s`, to the decode pool.
  auto hand_over = [&](std::size_t i, double now_s) {
    if (handed.empty()) return;
    std::int64_t sum = 0;
    for (const HandedPrompt& h : handed) sum += h.outcome.request.input;
    const auto k = static_cast<std::int64_t>(handed.size());
    const std::int64_t mean = std::llround(static_cast<double>(sum) / static_cast<double>(k));
    for (HandedPrompt& h : handed) {
      h.ready_s = now_s;
      h.prefill_s = P[i].busy_until() - P[i].started_s();
      h.batch = k;
      h.tokens = mean;
      load.resize(D.size());
      for (std::size_t j = 0; j < D.size(); ++j)
        load[j] = D[j].outstanding() + incoming[j].size() + static_cast<std::size_t>(inbound[j]);
      const std::size_t j = pick(load, rr_decode);
      incoming[j].push_back(std::move(h));
    }
    handed.clear();
  };
  // Decode replicas reserve the KV of the requests waiting for them, in order; each reserved
  // request's transfer starts.
  auto reserve = [&](double now_s) {
    for (std::size_t j = 0; j < D.size(); ++j)
      while (!incoming[j].empty()) {
        HandedPrompt& h = incoming[j].front();
        std::int64_t blocks = 0, committed = 0;
        if (!D[j].reserve(h.outcome.request, blocks, committed)) break;
        const double t = opts.transfer(h.tokens, h.batch, h.prefill_s, now_s == h.ready_s);
        const std::uint64_t id = h.outcome.request.id;
        if (id >= spec.warmup) {
          transfer_stats.add(id - spec.warmup, t);
          wait_stats.add(id - spec.warmup, now_s - h.ready_s);
        }
        transfers.push(KvInFlight{.end_s = now_s + t,
                                  .order = transfer_order++,
                                  .h = std::move(h),
                                  .decode = j,
                                  .blocks = blocks,
                                  .committed = committed});
        incoming[j].pop_front();
        ++inbound[j];
      }
  };
  // Transfers ending by `now_s`: the prefill's blocks freed, the first token out, the request in
  // its decode replica's queue.
  auto arrive = [&](double now_s) {
    while (!transfers.empty() && transfers.top().end_s <= now_s) {
      KvInFlight x = transfers.top();
      transfers.pop();
      P[x.h.prefill].release(x.h.blocks, x.h.committed);
      x.h.outcome.first_token_s = now_s;
      D[x.decode].enqueue_prefilled(x.h.outcome, x.blocks, x.committed, now_s);
      --inbound[x.decode];
    }
  };

  Request pending;
  bool has_pending = false;
  if (stream.closed_loop()) {
    for (std::int64_t c = 0; c < stream.clients(); ++c) send_closed(0);
  } else {
    has_pending = stream.next(pending);
  }
  const double p_blocks = static_cast<double>(po.limits.kv_blocks) * static_cast<double>(P.size());
  const double d_blocks = static_cast<double>(opts.decode_limits.kv_blocks) * static_cast<double>(D.size());
  std::vector<double> levels(6, 0.0);
  auto state = [&] {
    std::int64_t pu = 0, du = 0;
    std::size_t pw = 0, dw = 0;
    for (const Replica& r : P) {
      pu += r.used_blocks();
      pw += r.waiting();
    }
    for (std::size_t j = 0; j < D.size(); ++j) {
      du += D[j].used_blocks();
      dw += D[j].waiting() + incoming[j].size();
    }
    levels[0] = static_cast<double>(pu + du) / (p_blocks + d_blocks);
    levels[1] = static_cast<double>(pw + dw);
    levels[2] = static_cast<double>(pu) / p_blocks;
    levels[3] = static_cast<double>(pw);
    levels[4] = static_cast<double>(du) / d_blocks;
    levels[5] = static_cast<double>(dw);
  };

  double now = 0;
  for (;;) {
    reserve(now);
    arrive(now);  // transfers of no time
    for (Replica& r : P)
      if (!r.busy() && r.outstanding() > 0) r.start(now);
    for (Replica& r : D)
      if (!r.busy() && r.outstanding() > 0) r.start(now);
    state();
    rec.peak(now, levels);
    double next = has_pending ? pending.arrival_s : kNoEvent;
    for (const Replica& r : P)
      if (r.busy()) next = std::min(next, r.busy_until());
    for (const Replica& r : D)
      if (r.busy()) next = std::min(next, r.busy_until());
    if (!transfers.empty()) next = std::min(next, transfers.top().end_s);
    if (next == kNoEvent) {
      bool left = false;
      for (const Replica& r : P) left = left || r.outstanding() > 0;
      for (std::size_t j = 0; j < D.size(); ++j)
        left = left || D[j].outstanding() > 0 || !incoming[j].empty();
      if (left) pools_stalled(po.limits, opts.decode_limits);
      break;
    }
    rec.advance(now, next, levels);
    now = next;
    // Iterations ending at `now` first (prefill, then decode), the transfers ending, then arrivals.
    for (std::size_t i = 0; i < P.size(); ++i)
      if (P[i].busy() && P[i].busy_until() == now) {
        P[i].finish(on_done, on_gap);
        hand_over(i, now);
      }
    for (Replica& r : D)
      if (r.busy() && r.busy_until() == now) r.finish(on_done, on_gap);
    arrive(now);
    rec.end_event();
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
  DisaggFigures f;
  f.prefill.replicas = static_cast<std::int64_t>(P.size());
  f.decode.replicas = static_cast<std::int64_t>(D.size());
  f.prefill.kv_occupancy_mean = rec.level_mean(2);
  f.prefill.kv_occupancy_peak = rec.level_peak(2);
  f.prefill.queue_depth_mean = rec.level_mean(3);
  f.decode.kv_occupancy_mean = rec.level_mean(4);
  f.decode.kv_occupancy_peak = rec.level_peak(4);
  f.decode.queue_depth_mean = rec.level_mean(5);
  for (const Replica& r : P)
    add_replica_totals(r, f.prefill.preemptions, out.swapped_blocks, out.rule_events, f.prefill.iterations);
  for (const Replica& r : D)
    add_replica_totals(r, f.decode.preemptions, out.swapped_blocks, out.rule_events, f.decode.iterations);
  out.preemptions = f.prefill.preemptions + f.decode.preemptions;
  out.iterations = f.prefill.iterations + f.decode.iterations;
  f.transfer = transfer_stats.summary();
  f.transfer_wait = wait_stats.summary();
  out.disagg = f;
  out.step_shapes = prefill_steps.shapes() + decode_steps.shapes();
  return out;
}

}  // namespace tessera::requests
