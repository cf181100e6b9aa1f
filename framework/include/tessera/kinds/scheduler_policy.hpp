#pragma once
// Kind `scheduler`: the request simulator's scheduling decision — which sequences run in the
// next engine iteration, with how many tokens, which waiting requests are admitted and which
// running ones are preempted — and the router's choice of replica (docs/plugin-guide.md §10
// "The scheduler kind", docs/physics.md §12.5 "Scheduling rules"). Without a scheduler plugin the
// engine runs its framework's built-in rules. The host checks every decision against the
// engine's limits (KV blocks, sequences, batched tokens) and refuses one it cannot run, naming
// the plugin: a policy chooses, it cannot make the engine do what the engine cannot.
#include <cstddef>
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/plugin/plugin_object.hpp"

namespace tessera {

// One request of a replica's queues, as a policy sees it.
struct SchedSequence {
  std::uint64_t id = 0;  // the request's id (0, 1, ... in arrival order)
  double arrival_s = 0;
  std::int64_t input = 0;      // prompt tokens
  std::int64_t output = 0;     // output tokens it will generate (the first included)
  std::int64_t priority = 0;   // its class (serving.requests.priorities; lower = more urgent)
  std::int64_t computed = 0;   // tokens whose KV is cached (a preempted, recomputed one: 0)
  std::int64_t generated = 0;  // output tokens sampled so far
  std::int64_t blocks = 0;     // KV blocks it holds
  // Under no_evict (EngineState::may_preempt false): the blocks its admission commits (its prompt
  // and whole output, against EngineState::uncommitted_blocks); 0 otherwise or once committed.
  std::int64_t commit_blocks = 0;
  std::int64_t preemptions = 0;
  // Tokens to compute before its next token is sampled: the rest of its prompt (and, after a
  // preemption, its generated tokens), 1 in decode.
  std::int64_t need() const { return input + generated - computed; }
};

// The engine one decision is for.
struct EngineState {
  double now_s = 0;
  std::int64_t replica = 0;
  std::int64_t total_blocks = 0;  // the replica's KV blocks
  std::int64_t free_blocks = 0;   // not held by any sequence
  std::int64_t block_tokens = 16;
  std::int64_t max_sequences = 0;    // running sequences at most (the serving point's batch)
  std::int64_t token_budget = 0;     // tokens per iteration at most; 0 = none
  bool budget_counts_decode = true;  // false: decode tokens are outside token_budget (SGLang)
  bool chunked_prefill = true;       // false: an admitted prompt runs whole
  bool may_preempt = true;           // false: the engine never preempts (no_evict)
  // no_evict: blocks not yet committed to admitted requests (admissions' commit_blocks must fit)
  std::int64_t uncommitted_blocks = 0;
};

// A replica's queues during one schedule() call (valid for that call only). The running
// sequences are read in place (no call per sequence): the host sets the view before the call.
class TESSERA_API SchedulerQueues {
 public:
  virtual ~SchedulerQueues();
  std::size_t running_count() const { return running_count_; }
  // In admission order. An index past the end throws std::out_of_range.
  const SchedSequence& running(std::size_t i) const {
    if (i >= running_count_) running_out_of_range(i);
    return *reinterpret_cast<const SchedSequence*>(running_base_ + i * running_stride_);
  }
  virtual std::size_t waiting_count() const = 0;
  // In queue order: arrival, a preempted sequence back at the head. Past the end: out_of_range.
  virtual const SchedSequence& waiting(std::size_t i) const = 0;

 protected:
  [[noreturn]] void running_out_of_range(std::size_t i) const;
  const unsigned char* running_base_ = nullptr;  // the first running sequence's SchedSequence
  std::size_t running_stride_ = sizeof(SchedSequence);
  std::size_t running_count_ = 0;
};

// What the policy decides, written into the host's buffer (no call per entry); the host applies
// it after schedule() returns: the preemptions first (blocks freed; each preempted sequence put at
// the head of the waiting queue, the last one preempted first), then the runs (the running
// sequences keep their admission order) and the admissions (appended in the order given), their
// blocks allocated. The engine's `mixing` and `order` are its built-in rules'; a policy mixes
// prefill chunks and decodes as it decides. More entries than the replica has requests are an
// error.
class TESSERA_API SchedulerDecision {
 public:
  enum class Act : std::uint32_t { run, admit, preempt };
  struct Entry {
    Act act;
    std::size_t index;
    std::int64_t tokens;
  };
  virtual ~SchedulerDecision();
  // Running sequence i computes `tokens` tokens (1 for a decode; a prompt's next chunk, at most
  // need()).
  void run(std::size_t running_index, std::int64_t tokens) { add(Act::run, running_index, tokens); }
  // Waiting request i joins the running sequences with its first `tokens` tokens (its whole
  // need() unless the engine chunks prefills).
  void admit(std::size_t waiting_index, std::int64_t tokens) { add(Act::admit, waiting_index, tokens); }
  // Running sequence i gives up its KV blocks before the iteration (recomputed or swapped later,
  // as the engine's preemption mode says).
  void preempt(std::size_t running_index) { add(Act::preempt, running_index, 0); }

 protected:
  Entry* entries_ = nullptr;
  std::size_t capacity_ = 0, size_ = 0;
  bool overflow_ = false;

 private:
  void add(Act act, std::size_t index, std::int64_t tokens) {
    if (size_ < capacity_)
      entries_[size_++] = Entry{act, index, tokens};
    else
      overflow_ = true;
  }
};

// The replicas a router chooses among.
class TESSERA_API ReplicaLoads {
 public:
  virtual ~ReplicaLoads();
  virtual std::size_t count() const = 0;
  virtual std::size_t outstanding(std::size_t replica) const = 0;  // waiting + running requests
  virtual std::int64_t free_blocks(std::size_t replica) const = 0;
};

class TESSERA_API SchedulerPolicy : public PluginObject {
 public:
  ~SchedulerPolicy() override;
  // The next iteration of one replica. An empty decision runs nothing (the replica waits for the
  // next event); one that only preempts is asked again at once, with the blocks freed. Thread-safe (const):
  // simulations on several threads share the object; keep no state between calls. Allocates nothing.
  virtual void schedule(const EngineState& engine, const SchedulerQueues& queues,
                        SchedulerDecision& out) const = 0;
  // The replica (0 .. loads.count() − 1) that takes `request` as it arrives; −1 (the default)
  // leaves the choice to the scenario's router (serving.requests.router).
  virtual std::int64_t route(const SchedSequence& request, const ReplicaLoads& loads) const {
    (void)request;
    (void)loads;
    return -1;
  }
};

}  // namespace tessera
