#include "analysis/requests/replica.hpp"

#include "host/guarded_plugins.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace tessera::requests {

void add_replica_totals(const Replica& r, std::int64_t& preemptions, std::int64_t& swapped_blocks,
                        RuleEvents& events, std::uint64_t& iterations) {
  preemptions += r.preemptions();
  swapped_blocks += r.swapped_blocks();
  events.add(r.rule_events());
  iterations += r.iterations();
}

Replica::Replica(const EngineLimits& limits, StepMemo& steps, std::int64_t index, ReplicaRole role)
    : limits_(limits), steps_(steps), index_(index), role_(role), new_token_ratio_(limits.rules.ratio_init) {
  const auto slots = static_cast<std::size_t>(std::clamp<std::int64_t>(limits.max_sequences, 1, 1 << 16));
  scheduled_.reserve(slots);
  running_.reserve(slots);
  load_blocks_now_.assign(limits.offload.size(), 0);
  if (limits.prefix_caching)
    cache_ = std::make_unique<PrefixCache>(limits.kv_blocks, limits.block_tokens, limits.offload,
                                           limits.offload_write_through);
}

CacheFigures Replica::cache_figures() const {
  CacheFigures f;
  if (!cache_) return f;
  f.on = true;
  f.looked_up = cache_->looked_up_blocks();
  f.hits = cache_->hit_blocks();
  f.loaded = cache_->loaded_blocks();
  f.declined = declined_blocks_;
  return f;
}

std::int64_t Replica::cached_tokens(const Sequence& s) {
  const std::int64_t bt = limits_.block_tokens;
  const std::int64_t need = s.need();
  cache_->probe(s.outcome.request, need, probe_);
  probe_declined_ = 0;
  const std::int64_t loaded = probe_.loaded();
  if (loaded > 0) {
    // A tier's blocks are loaded when the copy is quicker than what computing them adds: the rest
    // of the prompt prefilled after the HBM hits, less the rest after the loaded blocks too.
    IterationShape with, without;
    with.prompts = without.prompts = 1;
    with.chunk_tokens = need - probe_.hbm * bt;
    with.chunk_prefix = probe_.hbm * bt;
    without.chunk_tokens = need - (probe_.hbm + loaded) * bt;
    without.chunk_prefix = (probe_.hbm + loaded) * bt;
    if (!(load_time(probe_.tier) < steps_.exact(with) - steps_.exact(without))) {
      probe_declined_ = loaded;
      std::fill(probe_.tier.begin(), probe_.tier.end(), 0);
    }
  }
  return (probe_.hbm + probe_.loaded()) * bt;
}

double Replica::load_time(const std::vector<std::int64_t>& blocks) const {
  double s = 0;
  for (std::size_t t = 0; t < blocks.size(); ++t)
    if (blocks[t] > 0)
      s += limits_.offload[t].latency_s + static_cast<double>(blocks[t]) * limits_.offload[t].block_s;
  return s;
}

void Replica::take_cached(Sequence& s, std::int64_t cached) {
  cache_->count_lookup((s.need() - 1) / limits_.block_tokens);
  used_blocks_ += cache_->take_hits(s.hold, s.outcome.request, probe_);
  s.blocks = probe_.hbm;
  s.computed = cached;
  for (std::size_t t = 0; t < probe_.tier.size(); ++t) load_blocks_now_[t] += probe_.tier[t];
  cache_->count_loads(probe_);
  declined_blocks_ += probe_declined_;
}

bool never_fits(const EngineLimits& lim, const Request& r, std::int64_t tokens) {
  if (r.input + r.output > tokens) return true;
  return lim.rules.admission == Admission::reserve_output &&
         r.input + std::min(r.output, lim.rules.clip_output) >= tokens;
}

SchedSequence sched_sequence(const Request& r) {
  SchedSequence s;
  s.id = r.id;
  s.arrival_s = r.arrival_s;
  s.input = r.input;
  s.output = r.output;
  s.priority = r.priority;
  return s;
}

void Replica::join_running(Sequence& s, std::int64_t n, std::int64_t more, std::int64_t commit) {
  if (s.swapped) {  // its computed tokens' KV comes back from the host
    swap_blocks_now_ += blocks_for(s.computed);
    swapped_blocks_ += blocks_for(s.computed);
    s.swapped = false;
  }
  take(s, more);
  s.committed += commit;
  s.commit_blocks = 0;
  committed_blocks_ += commit;
  running_.push_back(std::move(s));
  scheduled_.push_back({running_.size() - 1, n});
}

Replica::Sequence Replica::sequence_of(const Request& r) const {
  Sequence s;
  static_cast<SchedSequence&>(s) = sched_sequence(r);
  s.commit_blocks = commitment(r);
  s.outcome.request = r;
  s.outcome.replica = index_;
  return s;
}

void Replica::enqueue(const Request& r) {
  longest_request_ = std::max(longest_request_, r.input + r.output);
  waiting_.push_back(sequence_of(r));
}

void Replica::check_progress() {
  // A request's prompt and output, computed once each even one token an iteration, end in
  // input + output iterations; four times the longest, plus a margin, without one token sampled is
  // a schedule that makes no progress (a policy that preempts what it runs, over and over).
  if (++iterations_without_token_ <= kProgressMargin + 4 * static_cast<std::uint64_t>(longest_request_))
    return;
  const std::string what = "no token sampled in " + std::to_string(iterations_without_token_) +
                           " iterations of replica " + std::to_string(index_) +
                           ": its decisions make no progress (preempting what they run?)";
  if (limits_.policy) throw_plugin_error(*limits_.policy, "scheduler", what);
  throw std::runtime_error("request simulation: " + what);
}

std::int64_t Replica::commitment(const Request& r) const {
  if (limits_.preemption != Preemption::no_evict) return 0;
  // A prefill replica keeps the prompt only; the others the prompt and every output token.
  return blocks_for(role_ == ReplicaRole::prefill ? r.input : r.input + r.output);
}

void Replica::release(std::int64_t blocks, std::int64_t committed) {
  used_blocks_ -= blocks;
  committed_blocks_ -= committed;
}

bool Replica::reserve(const Request& r, std::int64_t& blocks, std::int64_t& committed) {
  blocks = blocks_for(r.input);
  committed = commitment(r);
  if (blocks > limits_.kv_blocks - used_blocks_) return false;
  if (committed > limits_.kv_blocks - committed_blocks_) return false;
  used_blocks_ += blocks;
  committed_blocks_ += committed;
  return true;
}

void Replica::enqueue_prefilled(const RequestOutcome& o, std::int64_t blocks, std::int64_t committed,
                                double now_s) {
  Sequence s = sequence_of(o.request);
  s.outcome = o;
  s.outcome.replica = index_;
  s.preemptions = o.preemptions;
  s.generated = 1;
  s.computed = o.request.input;
  s.blocks = blocks;
  s.committed = committed;
  if (committed > 0) s.commit_blocks = 0;
  longest_request_ = std::max(longest_request_, o.request.input + o.request.output);
  s.last_token_s = now_s;
  s.scheduled_once = true;
  // Its KV is resident: it joins the running sequences when a place is free (scheduled from the
  // next iteration on), else waits for one.
  if (static_cast<std::int64_t>(running_.size()) < limits_.max_sequences)
    running_.push_back(std::move(s));
  else
    waiting_.push_back(std::move(s));
}

std::int64_t Replica::give_up_blocks(Sequence& s) {
  drop(s);
  committed_blocks_ -= s.committed;  // no_evict never preempts; kept exact all the same
  s.committed = 0;
  s.commit_blocks = commitment(s.outcome.request);
  std::int64_t swapped = 0;
  if (limits_.preemption == Preemption::swap && s.computed > 0) {
    swapped = s.blocks;
    swapped_blocks_ += s.blocks;
    s.swapped = true;
  } else {
    s.computed = 0;
  }
  s.blocks = 0;
  ++s.outcome.preemptions;
  ++s.preemptions;
  ++preemptions_;
  return swapped;
}

bool Replica::evict_waiting_holder() {
  // The most recent waiting sequence holding blocks (a received one) gives them up, as a
  // preempted one does.
  for (auto it = waiting_.rbegin(); it != waiting_.rend(); ++it) {
    Sequence& s = *it;
    if (s.blocks == 0) continue;
    evicted_swap_blocks_ += give_up_blocks(s);
    return true;
  }
  return false;
}

bool Replica::start(double now_s) {
  // Nothing can run while waiting sequences hold blocks the head of the queue needs: they give
  // them up, newest first (only a decode replica's received sequences hold blocks while waiting).
  for (;;) {
    if (try_start(now_s)) return true;
    // A policy decides what runs; the host evicts nothing behind its back.
    if (limits_.policy || waiting_.empty() || !evict_waiting_holder()) return false;
  }
}

std::size_t Replica::victim(std::size_t from) const {
  std::size_t v = running_.size() - 1;  // newest: the last admitted
  if (limits_.rules.victim == Victim::fewest_output)
    for (std::size_t i = running_.size(); i-- > from;)
      if (fewer_outputs(running_[i], running_[v])) v = i;
  return v;
}

void Replica::preempt(std::size_t i) {
  Sequence s = std::move(running_[i]);
  running_.erase(running_.begin() + static_cast<std::ptrdiff_t>(i));
  swap_blocks_now_ += give_up_blocks(s);  // copied out to the host
  waiting_.push_front(std::move(s));
}

bool Replica::reserve_admits(const Sequence& s, std::int64_t cached, double& room) const {
  if (limits_.rules.admission != Admission::reserve_output) return true;
  const double total = static_cast<double>(s.need() - cached + reserved_output(s));
  if (total >= room) return false;  // PrefillAdder.add_one_req: NO_TOKEN
  room -= total;
  return true;
}

double Replica::reserve_room() const {
  if (limits_.rules.admission != Admission::reserve_output) return 0;
  // rem_total_tokens: the free tokens less the running requests' remaining outputs x ratio
  double offset = 0;
  for (const Sequence& s : running_) offset += static_cast<double>(reserved_output(s)) * new_token_ratio_;
  return static_cast<double>((limits_.kv_blocks - used_blocks_) * limits_.block_tokens) - offset;
}

bool Replica::try_start(double now_s) {
  scheduled_.clear();
  swap_blocks_now_ = evicted_swap_blocks_;
  std::fill(load_blocks_now_.begin(), load_blocks_now_.end(), 0);
  if (limits_.policy) return try_start_policy(now_s);
  if (limits_.rules.order == StepOrder::prefill_first) return try_start_prefill_first(now_s);
  std::int64_t budget = budget_limit();
  const bool decode_free = limits_.rules.budget == BudgetCounts::prefill;
  const std::int64_t free_total = limits_.kv_blocks;
  bool preempted = false;
  // 1. Running sequences, in admission order.
  for (std::size_t i = 0; i < running_.size() && budget > 0;) {
    Sequence& s = running_[i];
    const std::int64_t need = s.need();
    const std::int64_t n = std::min(need, budget);
    const std::int64_t more = more_blocks(s, n);
    bool self_preempted = false;
    while (more > free_total - used_blocks_) {
      const std::size_t v = victim(i);
      preempt(v);
      preempted = true;
      if (v == i) {  // the one to preempt was this sequence: the next one is at i now
        self_preempted = true;
        break;
      }
    }
    if (self_preempted) continue;
    take(s, more);
    scheduled_.push_back({i, n});
    if (decode_free && decoding(s))
      ++events_.budget_free_decodes;
    else
      budget -= n;
    ++i;
  }
  // 2. Waiting requests, in arrival order (a preempted sequence at their head).
  double room = reserve_room();
  while (!preempted && !waiting_.empty() && budget > 0 &&
         static_cast<std::int64_t>(running_.size()) < limits_.max_sequences) {
    if (!admit_front(budget, room)) break;
  }
  if (scheduled_.empty()) return false;
  launch(now_s);
  return true;
}

bool Replica::admit_front(std::int64_t& budget, double& room) {
  Sequence& s = waiting_.front();
  // Prefix caching: a sequence with nothing computed starts after what it finds cached.
  const bool fresh = cache_ && s.blocks == 0 && s.computed == 0;
  const std::int64_t cached = fresh ? cached_tokens(s) : 0;
  const std::int64_t need = s.need() - cached;
  if (!limits_.chunked_prefill && need > budget) return false;
  const std::int64_t n = std::min(need, budget);
  // A received or swapped-out sequence keeps its computed tokens (a swapped one copies them in); a
  // cached one allocates past its HBM hits and takes those in the free queue back from it.
  const std::int64_t more = fresh ? blocks_for(cached + n) - probe_.hbm : more_blocks(s, n);
  const std::int64_t taken = fresh ? probe_.evictable : 0;
  const std::int64_t free_total = limits_.kv_blocks;
  if (more + taken > free_total - used_blocks_) {
    ++events_.block_deferrals;
    return false;
  }
  const std::int64_t commit = s.committed == 0 ? commitment(s.outcome.request) : 0;
  if (commit > free_total - committed_blocks_) {
    ++events_.commit_deferrals;
    return false;
  }
  if (!reserve_admits(s, cached, room)) {
    ++events_.reserve_deferrals;
    return false;
  }
  if (fresh) take_cached(s, cached);
  join_running(s, n, more, commit);
  waiting_.pop_front();
  budget -= n;
  return true;
}

void Replica::launch(double now_s) {
  // The iteration's shape: decode tokens beside prefill chunks.
  IterationShape shape;
  double context = 0, tokens = 0, prefix = 0;
  for (const Scheduled& x : scheduled_) {
    Sequence& s = running_[x.running_index];
    if (!s.scheduled_once) {
      s.scheduled_once = true;
      s.outcome.first_scheduled_s = now_s;
    }
    const bool decode = decode_token(s, x.tokens);
    if (decode) {
      ++shape.decodes;
      context += static_cast<double>(s.computed + 1);
    } else {
      ++shape.prompts;
      tokens += static_cast<double>(x.tokens);
      prefix += static_cast<double>(s.computed);
      if (s.computed + x.tokens == s.outcome.request.input + s.generated) shape.last = true;
    }
  }
  if (shape.decodes > 0) shape.decode_context = context / static_cast<double>(shape.decodes);
  if (shape.prompts > 0) {
    const auto k = static_cast<double>(shape.prompts);
    shape.chunk_tokens = std::max<std::int64_t>(1, std::llround(tokens / k));
    shape.chunk_prefix = std::llround(prefix / k);
  }
  busy_ = true;
  started_s_ = now_s;
  busy_until_ = now_s + steps_.time(shape);
  if (swap_blocks_now_ > 0)
    busy_until_ += limits_.swap_latency_s + static_cast<double>(swap_blocks_now_) * limits_.swap_block_s;
  // Prefix caching: KV loaded from the offload tiers before the compute, each tier's latency once.
  busy_until_ += load_time(load_blocks_now_);
  evicted_swap_blocks_ = 0;
}

void Replica::finish(const std::function<void(const RequestOutcome&)>& on_done, const TokenGapSink& on_gap) {
  const double t = busy_until_;
  busy_ = false;
  const Request* run_first = nullptr;  // the current run of equal gaps (of one measurement batch)
  double run_gap = 0;
  std::uint64_t run = 0, run_key = 0;
  check_progress();
  for (const Scheduled& x : scheduled_) {
    Sequence& s = running_[x.running_index];
    s.computed += x.tokens;
    if (cache_) cache_->computed(s.hold, s.outcome.request, s.computed);
    if (s.computed != s.outcome.request.input + s.generated) continue;  // a chunk short of its end
    ++s.generated;
    iterations_without_token_ = 0;
    if (s.generated == 1) {
      s.outcome.first_token_s = t;
    } else {
      const double gap = t - s.last_token_s;
      s.outcome.max_gap_s = std::max(s.outcome.max_gap_s, gap);
      const std::uint64_t key = grouping_.key(s.outcome.request.id);
      if (run > 0 && gap == run_gap && key == run_key) {
        ++run;
      } else {
        if (run > 0) on_gap(*run_first, run_gap, run);
        run_first = &s.outcome.request;
        run_gap = gap;
        run_key = key;
        run = 1;
      }
    }
    s.last_token_s = t;
  }
  if (run > 0) on_gap(*run_first, run_gap, run);
  ++iterations_;
  // Finished sequences leave, their blocks freed; the others keep their order.
  std::size_t kept = 0;
  for (std::size_t i = 0; i < running_.size(); ++i) {
    Sequence& s = running_[i];
    if (s.generated >= s.outcome.request.output) {
      s.outcome.finish_s = t;
      drop(s);
      committed_blocks_ -= s.committed;
      on_done(s.outcome);
      continue;
    }
    if (role_ == ReplicaRole::prefill && s.generated >= 1 && handoff_) {
      handoff_(s.outcome, s.blocks, s.committed);  // its blocks stay held until release()
      continue;
    }
    if (kept != i) running_[kept] = std::move(s);
    ++kept;
  }
  running_.resize(kept);
  scheduled_.clear();
  // The cache's free queue and the replica's count describe the same blocks.
  if (cache_ && cache_->free_blocks() != limits_.kv_blocks - used_blocks_)
    throw std::logic_error("request simulation: replica " + std::to_string(index_) + " counts " +
                           std::to_string(used_blocks_) + " blocks used where its prefix cache has " +
                           std::to_string(limits_.kv_blocks - cache_->free_blocks()));
}

}  // namespace tessera::requests
