// A scheduler plugin's decision (replica.hpp, tessera/kinds/scheduler_policy.hpp): the replica's
// queues shown to the policy, its decision checked against the engine's limits — every request
// it names exists and is named once, tokens within what each needs, the batched-token limit,
// the sequence limit, the KV blocks (and no_evict's commitments) — and applied. A decision the
// engine cannot run is the plugin's error (docs/plugin-guide.md "The scheduler kind").
#include <algorithm>
#include <stdexcept>
#include <string>

#include "analysis/requests/replica.hpp"
#include "host/guarded_plugins.hpp"

namespace tessera::requests {

class Replica::Queues final : public SchedulerQueues {
 public:
  explicit Queues(const Replica& r) : r_(r) {
    running_count_ = r.running_.size();
    running_stride_ = sizeof(Sequence);
    running_base_ =
        r.running_.empty()
            ? nullptr
            : reinterpret_cast<const unsigned char*>(static_cast<const SchedSequence*>(r.running_.data()));
  }
  std::size_t waiting_count() const override { return r_.waiting_.size(); }
  const SchedSequence& waiting(std::size_t i) const override {
    if (i >= r_.waiting_.size())
      throw std::out_of_range("waiting(" + std::to_string(i) + ") of " + std::to_string(r_.waiting_.size()) +
                              " waiting requests");
    return r_.waiting_[i];
  }

 private:
  const Replica& r_;
};

class Replica::Decision final : public SchedulerDecision {
 public:
  // Entries into `buffer`, at most `cap` (its size is made at least that).
  Decision(std::vector<Entry>& buffer, std::size_t cap) {
    if (buffer.size() < cap) buffer.resize(cap);
    entries_ = buffer.data();
    capacity_ = cap;
  }
  std::size_t size() const { return size_; }
  bool overflow() const { return overflow_; }
};

namespace {

const char* act_name(SchedulerDecision::Act a) {
  return a == SchedulerDecision::Act::run ? "run" : a == SchedulerDecision::Act::admit ? "admit" : "preempt";
}

}  // namespace

void throw_stalled(const SchedulerPolicy* policy, const std::string& replica) {
  if (policy)
    throw_plugin_error(
        *policy, "scheduler",
        "schedule ran nothing while " + replica +
            " holds requests and nothing else can happen (no iteration runs, no request comes)");
  throw std::runtime_error("request simulation: " + replica + " holds requests it can never schedule");
}

void check_not_stalled(const std::vector<Replica>& replicas, const SchedulerPolicy* policy) {
  for (std::size_t i = 0; i < replicas.size(); ++i)
    if (replicas[i].outstanding() > 0) throw_stalled(policy, "replica " + std::to_string(i));
}

void Replica::refuse(const std::string& what) const {
  throw_plugin_error(
      *limits_.policy, "scheduler",
      "schedule decided what the engine cannot run (replica " + std::to_string(index_) + "): " + what);
}

void Replica::check_decision(const EngineState& e) {
  const std::uint64_t stamp = ++stamp_;
  std::int64_t tokens = 0, freed = 0, commit = 0, preempts = 0, admits = 0, new_blocks = 0;
  runs_in_order_ = true;
  std::size_t last_run = 0;
  bool any_run = false;
  for (const Entry& x : entries()) {
    if (x.act == Act::run) {
      runs_in_order_ = runs_in_order_ && (!any_run || x.index > last_run);
      last_run = x.index;
      any_run = true;
    }
    const bool run = x.act != Act::admit;
    const std::size_t size = run ? running_.size() : waiting_.size();
    // The entry's name for a message, made only when one is thrown ("admit(7)").
    const auto what = [&x] { return std::string(act_name(x.act)) + "(" + std::to_string(x.index) + ")"; };
    if (x.index >= size)
      refuse(what() + " names no request: " + std::to_string(size) + (run ? " running" : " waiting"));
    Sequence& s = run ? running_[x.index] : waiting_[x.index];
    if (s.stamp == stamp) refuse(what() + " names request " + std::to_string(s.id) + " a second time");
    s.stamp = stamp;
    if (x.act == Act::preempt) {
      if (!e.may_preempt) refuse(what() + ": this engine never preempts (no_evict)");
      freed += s.blocks;
      ++preempts;
      continue;
    }
    if (x.tokens < 1 || x.tokens > s.need())
      refuse(what() + " gives request " + std::to_string(s.id) + " " + std::to_string(x.tokens) +
             " tokens; it needs 1 to " + std::to_string(s.need()));
    if (x.act == Act::admit && !e.chunked_prefill && x.tokens != s.need())
      refuse(what() + " chunks request " + std::to_string(s.id) +
             "'s prompt; this engine runs prompts whole");
    if (e.budget_counts_decode || !decode_token(s, x.tokens)) tokens += x.tokens;
    new_blocks += more_blocks(s, x.tokens);
    if (x.act == Act::admit) {
      ++admits;
      if (s.committed == 0) commit += commitment(s.outcome.request);
    }
  }
  if (e.token_budget > 0 && tokens > e.token_budget)
    refuse(std::to_string(tokens) + " tokens in one iteration, beyond the batched-token limit " +
           std::to_string(e.token_budget));
  const std::int64_t running = static_cast<std::int64_t>(running_.size()) - preempts + admits;
  if (running > e.max_sequences)
    refuse(std::to_string(running) + " running sequences, beyond the limit " +
           std::to_string(e.max_sequences));
  if (new_blocks > e.free_blocks + freed)
    refuse("runs and admits beyond the KV capacity: " + std::to_string(new_blocks) +
           " more blocks for its runs and admissions, " + std::to_string(e.free_blocks + freed) +
           " free of " + std::to_string(e.total_blocks));
  if (commit > limits_.kv_blocks - committed_blocks_)
    refuse("admits beyond what no_evict can guarantee: its admissions commit " + std::to_string(commit) +
           " blocks, " + std::to_string(limits_.kv_blocks - committed_blocks_) + " are uncommitted");
}

bool Replica::try_start_policy(double now_s, bool asked_again) {
  EngineState e;
  e.now_s = now_s;
  e.replica = index_;
  e.total_blocks = limits_.kv_blocks;
  e.free_blocks = limits_.kv_blocks - used_blocks_;
  e.block_tokens = limits_.block_tokens;
  e.max_sequences = limits_.max_sequences;
  e.token_budget = limits_.token_budget;
  e.budget_counts_decode = limits_.rules.budget == BudgetCounts::all;
  e.chunked_prefill = limits_.chunked_prefill;
  e.may_preempt = limits_.preemption != Preemption::no_evict;
  e.uncommitted_blocks = limits_.kv_blocks - committed_blocks_;
  policy_size_ = 0;
  Queues queues(*this);
  // Room for every request twice: a repeated one is then named as such, not as an overflow.
  Decision decision(policy_entries_, 2 * (running_.size() + waiting_.size()) + 2);
  limits_.policy->schedule(e, queues, decision);
  policy_size_ = decision.size();
  if (decision.overflow())
    refuse("more than twice as many entries as requests (" +
           std::to_string(running_.size() + waiting_.size()) + ")");
  if (policy_size_ == 0) return false;
  check_decision(e);
  apply_decision();
  if (scheduled_.empty()) {  // preemptions only: asked again once, with the blocks they freed
    if (asked_again) return false;
    return try_start_policy(now_s, true);
  }
  launch(now_s);
  return true;
}

void Replica::apply_decision() {
  constexpr std::uint64_t kMoved = ~std::uint64_t{0};
  // Preempted sequences leave the running ones (in decision order), their blocks given up.
  policy_out_.clear();
  for (const Entry& x : entries())
    if (x.act == Act::preempt) {
      Sequence& s = running_[x.index];
      swap_blocks_now_ += give_up_blocks(s);
      policy_out_.push_back(std::move(s));
      s.stamp = kMoved;
    }
  if (policy_out_.empty() && runs_in_order_) {  // the common case: nothing moves
    for (const Entry& x : entries())
      if (x.act == Act::run) {
        Sequence& s = running_[x.index];
        const std::int64_t more = more_blocks(s, x.tokens);
        take(s, more);
        scheduled_.push_back({x.index, x.tokens});
      }
  } else {
    apply_runs(kMoved);
  }
  apply_admissions(kMoved);
}

void Replica::apply_runs(std::uint64_t moved) {
  // Runs keep their order; the tokens each is given, from the decision.
  policy_tokens_.assign(running_.size(), 0);
  for (const Entry& x : entries())
    if (x.act == Act::run) policy_tokens_[x.index] = x.tokens;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < running_.size(); ++i) {
    if (running_[i].stamp == moved) continue;
    if (kept != i) running_[kept] = std::move(running_[i]);
    if (const std::int64_t n = policy_tokens_[i]; n > 0) {
      Sequence& s = running_[kept];
      const std::int64_t more = more_blocks(s, n);
      take(s, more);
      scheduled_.push_back({kept, n});
    }
    ++kept;
  }
  running_.resize(kept);
}

void Replica::apply_admissions(std::uint64_t moved) {
  // Admissions, in decision order, from the queue as the policy saw it.
  std::size_t admitted = 0, highest = 0;
  for (const Entry& x : entries()) {
    if (x.act != Act::admit) continue;
    Sequence& w = waiting_[x.index];
    const std::int64_t more = more_blocks(w, x.tokens);
    const std::int64_t commit = w.committed == 0 ? commitment(w.outcome.request) : 0;
    join_running(w, x.tokens, more, commit);
    w.stamp = moved;  // the moved-from place, erased below
    ++admitted;
    highest = std::max(highest, x.index);
  }
  if (admitted > 0 && highest + 1 == admitted) {
    for (std::size_t i = 0; i < admitted; ++i) waiting_.pop_front();
  } else if (admitted > 0) {
    waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                  [moved](const Sequence& s) { return s.stamp == moved; }),
                   waiting_.end());
  }
  // The preempted back at the head of the queue, the last one preempted first.
  for (Sequence& s : policy_out_) waiting_.push_front(std::move(s));
}

}  // namespace tessera::requests
