#include "analysis/requests/replica.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::requests {

Replica::Replica(const EngineLimits& limits, StepMemo& steps, std::int64_t index)
    : limits_(limits), steps_(steps), index_(index) {
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

void Replica::preempt_last() {
  Sequence s = std::move(running_.back());
  running_.pop_back();
  used_blocks_ -= s.blocks;
  s.blocks = 0;
  s.computed = 0;
  ++s.outcome.preemptions;
  ++preemptions_;
  waiting_.push_front(std::move(s));
}

bool Replica::start(double now_s) {
  scheduled_.clear();
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
    const std::int64_t more = blocks_for(n);
    if (more > free_total - used_blocks_) break;
    s.blocks = more;
    used_blocks_ += more;
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
  return true;
}

void Replica::finish(const std::function<void(const RequestOutcome&)>& on_done, const TokenGapSink& on_gap) {
  const double t = busy_until_;
  busy_ = false;
  const Request* run_first = nullptr;  // the current run of equal gaps
  double run_gap = 0;
  std::uint64_t run = 0;
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
      if (run > 0 && gap == run_gap) {
        ++run;
      } else {
        if (run > 0) on_gap(*run_first, run_gap, run);
        run_first = &s.outcome.request;
        run_gap = gap;
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
      on_done(s.outcome);
      continue;
    }
    if (kept != i) running_[kept] = std::move(s);
    ++kept;
  }
  running_.resize(kept);
  scheduled_.clear();
}

}  // namespace tessera::requests
