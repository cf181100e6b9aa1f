#include "analysis/requests/replica.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::requests {

Replica::Replica(const EngineLimits& limits, StepMemo& steps, std::int64_t index, ReplicaRole role)
    : limits_(limits), steps_(steps), index_(index), role_(role) {
  const auto slots = static_cast<std::size_t>(std::clamp<std::int64_t>(limits.max_sequences, 1, 1 << 16));
  scheduled_.reserve(slots);
  running_.reserve(slots);
}

void Replica::enqueue(const Request& r) {
  Sequence s;
  s.outcome.request = r;
  s.outcome.replica = index_;
  waiting_.push_back(s);
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
  Sequence s;
  s.outcome = o;
  s.outcome.replica = index_;
  s.generated = 1;
  s.computed = o.request.input;
  s.blocks = blocks;
  s.committed = committed;
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
  used_blocks_ -= s.blocks;
  committed_blocks_ -= s.committed;  // no_evict never preempts; kept exact all the same
  s.committed = 0;
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
    if (waiting_.empty() || !evict_waiting_holder()) return false;
  }
}

void Replica::preempt_last() {
  Sequence s = std::move(running_.back());
  running_.pop_back();
  swap_blocks_now_ += give_up_blocks(s);  // copied out to the host
  waiting_.push_front(std::move(s));
}

bool Replica::try_start(double now_s) {
  scheduled_.clear();
  swap_blocks_now_ = evicted_swap_blocks_;
  std::int64_t budget =
      limits_.token_budget > 0 ? limits_.token_budget : std::numeric_limits<std::int64_t>::max();
  const std::int64_t free_total = limits_.kv_blocks;
  bool preempted = false;
  // 1. Running sequences, in admission order.
  for (std::size_t i = 0; i < running_.size() && budget > 0;) {
    Sequence& s = running_[i];
    const std::int64_t need = s.outcome.request.input + s.generated - s.computed;
    const std::int64_t n = std::min(need, budget);
    const std::int64_t more = blocks_for(s.computed + n) - s.blocks;
    bool self_preempted = false;
    while (more > free_total - used_blocks_) {
      if (running_.size() - 1 == i) {  // the one to preempt is this sequence
        preempt_last();
        self_preempted = true;
        break;
      }
      preempt_last();
      preempted = true;
    }
    if (self_preempted) {
      preempted = true;
      break;
    }
    s.blocks += more;
    used_blocks_ += more;
    scheduled_.push_back({i, n});
    budget -= n;
    ++i;
  }
  // 2. Waiting requests, in arrival order (a preempted sequence at their head).
  while (!preempted && !waiting_.empty() && budget > 0 &&
         static_cast<std::int64_t>(running_.size()) < limits_.max_sequences) {
    Sequence& s = waiting_.front();
    const std::int64_t need = s.outcome.request.input + s.generated - s.computed;
    if (!limits_.chunked_prefill && need > budget) break;
    const std::int64_t n = std::min(need, budget);
    // A received or swapped-out sequence keeps its computed tokens (a swapped one copies them in).
    const std::int64_t more = blocks_for(s.computed + n) - s.blocks;
    if (more > free_total - used_blocks_) break;
    const std::int64_t commit = s.committed == 0 ? commitment(s.outcome.request) : 0;
    if (commit > free_total - committed_blocks_) break;
    if (s.swapped) {
      swap_blocks_now_ += blocks_for(s.computed);
      swapped_blocks_ += blocks_for(s.computed);
      s.swapped = false;
    }
    s.blocks += more;
    used_blocks_ += more;
    s.committed += commit;
    committed_blocks_ += commit;
    running_.push_back(std::move(s));
    waiting_.pop_front();
    scheduled_.push_back({running_.size() - 1, n});
    budget -= n;
  }
  if (scheduled_.empty()) return false;
  // The iteration's shape: decode tokens beside prefill chunks.
  IterationShape shape;
  double context = 0, tokens = 0, prefix = 0;
  for (const Scheduled& x : scheduled_) {
    Sequence& s = running_[x.running_index];
    if (!s.scheduled_once) {
      s.scheduled_once = true;
      s.outcome.first_scheduled_s = now_s;
    }
    const bool decode = x.tokens == 1 && s.computed >= s.outcome.request.input;
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
  evicted_swap_blocks_ = 0;
  return true;
}

void Replica::finish(const std::function<void(const RequestOutcome&)>& on_done, const TokenGapSink& on_gap) {
  const double t = busy_until_;
  busy_ = false;
  const Request* run_first = nullptr;  // the current run of equal gaps (of one measurement batch)
  double run_gap = 0;
  std::uint64_t run = 0, run_key = 0;
  for (const Scheduled& x : scheduled_) {
    Sequence& s = running_[x.running_index];
    s.computed += x.tokens;
    if (s.computed != s.outcome.request.input + s.generated) continue;  // a chunk short of its end
    ++s.generated;
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
      used_blocks_ -= s.blocks;
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
}

}  // namespace tessera::requests
