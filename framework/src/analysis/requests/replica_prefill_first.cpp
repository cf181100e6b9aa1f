// A prefill-first engine's iteration (replica.hpp; docs/physics.md §12.5 "Scheduling rules"):
// SGLang's Scheduler.get_next_batch_to_run — a prefill batch whenever one can be formed, alone,
// else one decode token for every running sequence, retracting by the rules' victim while their
// KV blocks do not fit.
#include <algorithm>
#include <limits>

#include "analysis/requests/replica.hpp"

namespace tessera::requests {

std::size_t Replica::decoding_victim() const {
  // retract_decode sorts the decode batch only: the newest decoding sequence, or the one with the
  // fewest output tokens, then the longest prompt.
  std::size_t v = running_.size();
  for (std::size_t i = 0; i < running_.size(); ++i) {
    const Sequence& a = running_[i];
    if (!decoding(a)) continue;
    if (v == running_.size() || limits_.rules.victim == Victim::newest) {
      v = i;
      continue;
    }
    if (fewer_outputs(a, running_[v])) v = i;
  }
  return v;
}

bool Replica::prefill_batch() {
  std::int64_t budget = budget_limit();
  const std::int64_t free_total = limits_.kv_blocks;
  // Waiting sequences that only decode (received by a decode replica, swapped out mid-decode)
  // join the running ones to decode with them, not as a prefill batch.
  while (!waiting_.empty() && decoding(waiting_.front()) &&
         static_cast<std::int64_t>(running_.size()) < limits_.max_sequences) {
    std::int64_t one = 1;
    double room = std::numeric_limits<double>::infinity();
    if (!admit_front(one, room)) break;
    scheduled_.pop_back();  // it decodes in the next decode batch
  }
  // Running sequences with prompt tokens left (a chunked prompt, a retracted and readmitted one)
  // first, then waiting requests in order as the budget, the sequence limit, the blocks and the
  // reservation allow.
  for (std::size_t i = 0; i < running_.size() && budget > 0; ++i) {
    Sequence& s = running_[i];
    if (decoding(s)) continue;
    const std::int64_t n = std::min(s.need(), budget);
    const std::int64_t more = more_blocks(s, n);
    if (more > free_total - used_blocks_) break;
    take(s, more);
    scheduled_.push_back({i, n});
    budget -= n;
  }
  double room = reserve_room();
  while (!waiting_.empty() && budget > 0 &&
         static_cast<std::int64_t>(running_.size()) < limits_.max_sequences && !decoding(waiting_.front()))
    if (!admit_front(budget, room)) break;
  return !scheduled_.empty();
}

bool Replica::try_start_prefill_first(double now_s) {
  const SchedulerRules& r = limits_.rules;
  if (running_.empty()) new_token_ratio_ = r.ratio_init;  // idle: SGLang's check during idle resets it
  const std::int64_t free_total = limits_.kv_blocks;
  // Twice at most: a retraction that leaves no decoder frees blocks a prefill may use at once.
  for (int attempt = 0; attempt < 2; ++attempt) {
    // 1. A prefill batch, alone.
    if (prefill_batch()) {
      for (const Sequence& s : running_)
        if (decoding(s)) {
          ++events_.decodes_held;
          break;
        }
      launch(now_s);
      return true;
    }
    // 2. A decode batch: retract while its new blocks do not fit; the last decoder is kept unless
    // it alone does not fit (retract_decode keeps one: "only one request left").
    bool retracted = false;
    std::int64_t decoders = 0;
    for (;;) {
      std::int64_t more = 0;
      decoders = 0;
      for (const Sequence& s : running_)
        if (decoding(s)) {
          more += more_blocks(s, 1);
          ++decoders;
        }
      if (decoders == 0 || more <= free_total - used_blocks_) break;
      preempt(decoding_victim());
      retracted = true;
    }
    if (decoders == 0) {
      if (retracted) continue;  // blocks freed: a prefill may run now
      return false;
    }
    double outputs = 0, generated = 0;
    for (std::size_t i = 0; i < running_.size(); ++i) {
      Sequence& s = running_[i];
      if (!decoding(s)) continue;
      const std::int64_t more = more_blocks(s, 1);
      take(s, more);
      scheduled_.push_back({i, 1});
      outputs += static_cast<double>(s.output);
      generated += static_cast<double>(s.generated);
    }
    if (r.admission == Admission::reserve_output) {
      const double floor = r.ratio_init * r.ratio_min_factor;
      if (retracted) {  // ScheduleBatch.retract_decode's new estimate
        const double n = static_cast<double>(scheduled_.size());
        new_token_ratio_ = std::min(1.0, (generated + r.retract_steps * n) / (outputs + 1));
      } else {
        new_token_ratio_ = std::max(new_token_ratio_ - (r.ratio_init - floor) / r.decay_steps, floor);
      }
    }
    launch(now_s);
    return true;
  }
  return false;
}

}  // namespace tessera::requests
