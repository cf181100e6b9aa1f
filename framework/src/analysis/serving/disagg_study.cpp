// Disaggregated serving: pools, their Pareto filter, the pairing (disagg_study.hpp).
#include "analysis/serving/disagg_study.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/cancellation.hpp"
#include "eval/grid_space.hpp"
#include "eval/host_step_timer.hpp"
#include "tessera/error.hpp"

namespace tessera {

namespace {

// pes, tp, pp, cp, KV sharding (and the prefill batch): what a pair's link and transfer depend on.
using GroupKey = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, std::int64_t>;

GroupKey group_of(const PoolCandidate& c, bool by_batch) {
  return {c.pes,
          c.config.tp,
          c.config.pp,
          c.config.cp,
          static_cast<int>(c.config.kv_shard_mode),
          by_batch ? c.batch : 0};
}

// a before b in the pairs' order: most tokens/s/PE, then most tokens/s/user (the frontier's
// other objective: the best is never dominated by a frontier point), then fewer PEs, then the
// order of the candidates and the replica counts.
bool better_pair(const DisaggPair& a, const DisaggPair& b) {
  if (a.tokens_per_s_per_pe != b.tokens_per_s_per_pe) return a.tokens_per_s_per_pe > b.tokens_per_s_per_pe;
  if (a.tokens_per_s_per_user != b.tokens_per_s_per_user)
    return a.tokens_per_s_per_user > b.tokens_per_s_per_user;
  if (a.pes != b.pes) return a.pes < b.pes;
  return std::tie(a.prefill.key, a.decode.key, a.x, a.y) < std::tie(b.prefill.key, b.decode.key, b.x, b.y);
}

}  // namespace

PoolShape shape_of(const ParallelConfig& c) {
  return PoolShape{
      .tp = c.tp, .pp = c.pp, .cp = c.cp, .kv_replicated = c.kv_shard_mode == KvShardMode::replicate};
}

std::vector<PoolCandidate> pareto_pool(const std::vector<PoolCandidate>& all, double time_limit,
                                       bool by_batch) {
  std::map<GroupKey, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].time_s <= time_limit) groups[group_of(all[i], by_batch)].push_back(i);
  std::vector<bool> keep(all.size(), false);
  for (auto& [key, idx] : groups) {
    // Fastest first (ties: higher rate, then the order); a candidate is kept when its rate beats
    // every faster one's.
    std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
      if (all[a].time_s != all[b].time_s) return all[a].time_s < all[b].time_s;
      if (all[a].requests_per_s != all[b].requests_per_s)
        return all[a].requests_per_s > all[b].requests_per_s;
      return a < b;
    });
    double best_rate = -1;
    for (std::size_t i : idx)
      if (all[i].requests_per_s > best_rate) {
        keep[i] = true;
        best_rate = all[i].requests_per_s;
      }
  }
  std::vector<PoolCandidate> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (keep[i]) out.push_back(all[i]);
  return out;
}

bool evaluate_pair(const PairingInputs& in, const PoolCandidate& p, const PoolCandidate& d, std::int64_t x,
                   std::int64_t y, DisaggPair& out) {
  out.prefill = p;
  out.decode = d;
  out.x = x;
  out.y = y;
  out.pes = x * p.pes + y * d.pes;
  if (in.spec.has_transfer) {
    out.level = -1;
    out.link = in.spec.transfer;
  } else {
    out.level = -2;
    if (!in.machine) return false;  // pools on two machines: no level joins them
    const MachineSpec& m = *in.machine;
    for (std::size_t i = 0; i < m.levels.size(); ++i)
      if (m.pes_per_unit(static_cast<int>(i) + 1) >= out.pes) {
        out.level = static_cast<int>(i);
        out.link =
            TransferLink{m.levels[i].link_bw * m.levels[i].collectives.link_efficiency, m.levels[i].latency};
        break;
      }
    if (out.level == -2) return false;
  }
  const ModelSpec& model = *in.model;
  // The batch's b prompts are sent together: the TTFT of each sees the whole batch's transfer.
  out.transfer =
      kv_transfer(model, in.request.input, shape_of(p.config), shape_of(d.config), out.link, p.batch);
  out.transfer_exposed_s = exposed_transfer_s(out.transfer, p.time_s, model.layers, in.spec.overlap);
  out.ttft_s = p.time_s + out.transfer_exposed_s;
  out.tpot_s = d.time_s;
  const double O = static_cast<double>(in.request.output);
  out.e2e_s = out.ttft_s + (O - 1) * out.tpot_s;
  // Each pool's rate, capped by its PEs' link: a prefill replica's busiest sender is busy
  // send_time_s per batch of b, a decode replica's receiver receive_time_s per request.
  const double dp_p = static_cast<double>(p.config.dp), dp_d = static_cast<double>(d.config.dp);
  const double cap_p = dp_p * static_cast<double>(p.batch) / out.transfer.send_time_s;
  const double cap_d = dp_d / out.transfer.receive_time_s;
  out.prefill_link_bound = cap_p < p.requests_per_s;
  out.decode_link_bound = cap_d < d.requests_per_s;
  const double rp = static_cast<double>(x) * std::min(p.requests_per_s, cap_p);
  const double rd = static_cast<double>(y) * std::min(d.requests_per_s, cap_d);
  out.prefill_bound = rp < rd;
  out.requests_per_s = std::min(rp, rd);
  out.prefill_utilization = out.requests_per_s / rp;
  out.decode_utilization = out.requests_per_s / rd;
  out.tokens_per_s = out.requests_per_s * O;
  out.tokens_per_s_per_pe = out.tokens_per_s / static_cast<double>(out.pes);
  out.tokens_per_s_per_user = out.tpot_s > 0 ? 1 / out.tpot_s : 0;
  return true;
}

bool pair_within_slo(const ServingSlo& slo, const DisaggPair& p) {
  return p.ttft_s <= slo.ttft_s && p.tpot_s <= slo.tpot_s && p.e2e_s <= slo.e2e_s &&
         p.tokens_per_s_per_user >= slo.min_tokens_per_s_per_user;
}

DisaggResult pair_pools(const PairingInputs& in, const std::vector<PoolCandidate>& prefill,
                        const std::vector<PoolCandidate>& decode) {
  DisaggResult r;
  DisaggCounts& n = r.counts;
  n.prefill_kept = prefill.size();
  n.decode_kept = decode.size();
  const std::int64_t R = in.spec.max_replicas;
  const std::int64_t machine_pes = in.machine ? in.machine->total_pes() : 0;
  auto over_machine = [&](std::int64_t xp, std::int64_t yd) {
    if (machine_pes > 0) return xp + yd > machine_pes;  // both pools on one machine
    return (in.prefill_machine_pes > 0 && xp > in.prefill_machine_pes) ||
           (in.decode_machine_pes > 0 && yd > in.decode_machine_pes);
  };
  // The best pair of each decode candidate: the frontier's tokens/s/user is the decode pool's.
  std::vector<std::optional<DisaggPair>> per_decode(decode.size());
  DisaggPair pair;
  for (const PoolCandidate& p : prefill)
    for (std::size_t j = 0; j < decode.size(); ++j) {
      if (j % 64 == 0) throw_if_cancelled();  // Ctrl-C within |decode| / 64 x 64 R^2 pairs
      for (std::int64_t x = 1; x <= R; ++x)
        for (std::int64_t y = 1; y <= R; ++y) {
          if (in.max_pes > 0 && x * p.pes + y * decode[j].pes > in.max_pes) {
            // PEs grow with y: every y' >= y is over the budget too.
            n.pairs += static_cast<std::uint64_t>(R - y + 1);
            n.over_budget += static_cast<std::uint64_t>(R - y + 1);
            break;
          }
          if (over_machine(x * p.pes, y * decode[j].pes)) {  // grows with y, too
            n.pairs += static_cast<std::uint64_t>(R - y + 1);
            n.over_machine += static_cast<std::uint64_t>(R - y + 1);
            break;
          }
          ++n.pairs;
          if (!evaluate_pair(in, p, decode[j], x, y, pair)) {
            ++n.no_link;
            continue;
          }
          if (!pair_within_slo(in.slo, pair)) {
            ++n.slo_miss;
            continue;
          }
          ++n.within_slo;
          if (!per_decode[j] || better_pair(pair, *per_decode[j])) per_decode[j] = pair;
        }
    }
  std::vector<DisaggPair> kept;
  for (auto& b : per_decode)
    if (b) kept.push_back(*b);
  for (const DisaggPair& b : kept)
    if (!r.best || better_pair(b, *r.best)) r.best = b;
  // Non-dominated on (tokens/s/user, tokens/s/PE), both maximised: most tokens/s/user first,
  // each kept when its tokens/s/PE beats every one before it.
  std::sort(kept.begin(), kept.end(), [](const DisaggPair& a, const DisaggPair& b) {
    if (a.tokens_per_s_per_user != b.tokens_per_s_per_user)
      return a.tokens_per_s_per_user > b.tokens_per_s_per_user;
    return better_pair(a, b);
  });
  double best = -1;
  for (const DisaggPair& b : kept)
    if (b.tokens_per_s_per_pe > best) {
      r.frontier.push_back(b);
      best = b.tokens_per_s_per_pe;
    }
  return r;
}

namespace {

// The prefill pool's candidates of configuration c (timer set on it), one per prefill batch:
// each a whole batch of prompts, counted out where its KV does not fit or its time is not finite.
void time_prefill_pool_points(HostStepTimer& timer, const ParallelConfig& c,
                              const std::vector<std::int64_t>& prefill_batches, const Workload& w,
                              DisaggPools& pools) {
  const double dp = static_cast<double>(c.dp);
  for (std::int64_t b : prefill_batches) {
    const std::uint64_t key = pools.prefill_points++;
    timer.set_max_sequences(b);  // the pool's batch is its engine's max sequences
    if (!timer.kv_fits(b, w.input)) {
      ++pools.prefill_kv_overflow;
      continue;
    }
    const double t = timer.prefill(b, w.input, 0);
    const double period = timer.prefill_period();
    if (!(std::isfinite(t) && t > 0 && std::isfinite(period) && period > 0)) {
      ++pools.non_finite;
      continue;
    }
    pools.prefill.push_back(PoolCandidate{.key = key,
                                          .config = c,
                                          .batch = b,
                                          .pes = c.pes(),
                                          .time_s = t,
                                          .requests_per_s = dp * static_cast<double>(b) / period});
  }
}

// The decode pool's candidates of configuration c (timer set on it), one per decode batch:
// each a decode iteration at the mean context, counted out as the prefill pool's.
void time_decode_pool_points(HostStepTimer& timer, const ParallelConfig& c,
                             const std::vector<std::int64_t>& decode_batches, const Workload& w,
                             DisaggPools& pools) {
  const double dp = static_cast<double>(c.dp);
  const double isl = static_cast<double>(w.input), osl = static_cast<double>(w.output);
  for (std::int64_t B : decode_batches) {
    const std::uint64_t key = pools.decode_points++;
    timer.set_max_sequences(B);
    if (!timer.kv_fits(B, w.input + w.output)) {
      ++pools.decode_kv_overflow;
      continue;
    }
    // pp > 1 keeps its pipeline full (StepTimer::decode_iteration), as aggregated does.
    const double t = timer.decode_iteration(B, isl + osl / 2);
    if (!(std::isfinite(t) && t > 0)) {
      ++pools.non_finite;
      continue;
    }
    pools.decode.push_back(PoolCandidate{.key = key,
                                         .config = c,
                                         .batch = B,
                                         .pes = c.pes(),
                                         .time_s = t,
                                         .requests_per_s = dp * static_cast<double>(B) / ((osl - 1) * t)});
  }
}

// Step 1 on one session: the prefill role, the decode role, or both (one pass).
void time_pools(const Session& session, std::int64_t max_pes, bool prefill_role, bool decode_role,
                DisaggPools& pools) {
  const Scenario& scenario = session.scenario();
  const Evaluator& ev = session.evaluator();
  const Workload& w = session.workload();
  if (w.output < 2)
    throw InputError("serving.disaggregated: the decode pool needs workload.output >= 2 (found " +
                     std::to_string(w.output) + ")");
  const GridSpace space(scenario.sweep, session.model(), session.machine(), w);
  const std::vector<ServingPoint> points = serving_points(scenario.sweep, scenario.serving.speculative);
  std::vector<std::int64_t> decode_batches;
  for (const ServingPoint& pt : points)
    if (std::find(decode_batches.begin(), decode_batches.end(), pt.batch) == decode_batches.end())
      decode_batches.push_back(pt.batch);
  const std::vector<std::int64_t> no_batches;
  const std::vector<std::int64_t>& prefill_batches =
      prefill_role ? scenario.serving.disaggregated.prefill_batch : no_batches;
  if (!decode_role) decode_batches.clear();
  Evaluation layout_holder, scratch;
  constexpr std::size_t kRange = 4096;
  std::vector<ParallelConfig> range(kRange);
  for (std::uint64_t first = 0; first < space.valid_count(); first += kRange) {
    const std::size_t count = space.valid_range(first, std::span<ParallelConfig>(range.data(), kRange));
    for (std::size_t i = 0; i < count; ++i) {
      const ParallelConfig& c = range[i];
      if (max_pes > 0 && c.pes() > max_pes) continue;
      if (scenario.framework.set &&
          stack_miss(scenario.framework.version(), c, space.model()) != ServingStackMiss::none)
        continue;
      // Each pool takes the configurations its own parallelism admits (serving.disaggregated.prefill /
      // .decode.parallelism; empty lists: all).
      const DisaggregationSpec& spec = scenario.serving.disaggregated;
      const bool as_prefill = prefill_role && spec.prefill.admits(c);
      const bool as_decode = decode_role && spec.decode.admits(c);
      if (!as_prefill && !as_decode) continue;
      if (scenario.framework.set && !scenario.framework.version().disaggregated_pp && c.pp > 1) {
        ++pools.stack_dropped;
        continue;
      }
      ev.layout_for(c, layout_holder);
      if (!layout_holder.layout.valid) continue;
      ++pools.configurations;
      HostStepTimer timer(ev, c, layout_holder.layout, scratch);
      timer.set_token_budget(0);  // whole prompts and decode steps, as the pair's simulation
      time_prefill_pool_points(timer, c, as_prefill ? prefill_batches : no_batches, w, pools);
      time_decode_pool_points(timer, c, as_decode ? decode_batches : no_batches, w, pools);
    }
    if (count == 0) break;
  }
}

}  // namespace

DisaggPools evaluate_pools(const Session& session, std::int64_t max_pes) {
  DisaggPools pools;
  time_pools(session, max_pes, true, true, pools);
  return pools;
}

DisaggPools evaluate_pools(const Session& prefill, const Session& decode, std::int64_t max_pes) {
  if (&prefill == &decode) return evaluate_pools(prefill, max_pes);
  DisaggPools pools;
  time_pools(prefill, max_pes, true, false, pools);
  time_pools(decode, max_pes, false, true, pools);
  return pools;
}

PoolSessions pool_sessions(const Session& base) {
  PoolSessions s;
  const ServingSpec& sv = base.scenario().serving;
  s.prefill = s.decode = &base;
  if (sv.prefill_machine.given) {
    s.own_prefill = base.on_machine(sv.prefill_machine);
    s.prefill = s.own_prefill.get();
  }
  if (sv.decode_machine.given) {
    s.own_decode = base.on_machine(sv.decode_machine);
    s.decode = s.own_decode.get();
  }
  // A pool with a load balancer of its own (serving.disaggregated.<pool>.eplb) or an MoE exchange
  // of its own (its flags differ from an aggregated server's): its own session.
  if (auto own = pool_own_session(*s.prefill, true)) {
    s.own_prefill = std::move(own);
    s.prefill = s.own_prefill.get();
  }
  if (auto own = pool_own_session(*s.decode, false)) {
    s.own_decode = std::move(own);
    s.decode = s.own_decode.get();
  }
  return s;
}

std::unique_ptr<Session> pool_own_session(const Session& from, bool prefill) {
  const Scenario& sc = from.scenario();
  const ServingSpec& sv = sc.serving;
  const EplbSpec& e = sv.pool_eplb(prefill);
  const std::array<MoeA2a, 4>& a2a = sc.moe_a2a_pools[prefill ? 0 : 1];
  if (e.given == sv.eplb.given && e.redundant_experts == sv.eplb.redundant_experts && a2a == sc.moe_a2a)
    return nullptr;
  return from.for_pool(e, a2a);
}

DisaggStudy run_disagg_study(const Session& session, std::int64_t max_pes) {
  return run_disagg_study(session, session, max_pes);
}

DisaggStudy run_disagg_study(const Session& prefill, const Session& decode, std::int64_t max_pes) {
  const Session& session = decode;
  const Scenario& scenario = session.scenario();
  DisaggStudy s;
  s.max_pes = max_pes >= 0 ? max_pes : scenario.serving.max_pes;
  s.pools = evaluate_pools(prefill, decode, s.max_pes);
  PairingInputs in;
  in.model = &session.model();
  // Two machines share no level: only serving.disaggregated.transfer joins them.
  in.machine = scenario.serving.separate_machines() ? nullptr : &session.machine();
  if (!in.machine) {
    in.prefill_machine_pes = prefill.machine().total_pes();
    in.decode_machine_pes = decode.machine().total_pes();
  }
  in.request = ServingRequest{session.workload().input, session.workload().output};
  in.slo = scenario.serving.slo;
  in.max_pes = s.max_pes;
  in.spec = scenario.serving.disaggregated;
  const double tpot_limit = std::min(
      in.slo.tpot_s, in.slo.min_tokens_per_s_per_user > 0 ? 1 / in.slo.min_tokens_per_s_per_user : kNoSlo);
  s.result = pair_pools(in, pareto_pool(s.pools.prefill, in.slo.ttft_s, true),
                        pareto_pool(s.pools.decode, tpot_limit));
  return s;
}

double disaggregation_gain(const DisaggResult& d, const ServeResult& a) {
  if (!d.best || !(a.best_tokens_per_s_per_pe > 0)) return 0;
  return d.best->tokens_per_s_per_pe / a.best_tokens_per_s_per_pe;
}

}  // namespace tessera
