#pragma once
// One serving replica (one dp group) as an engine runs it, iteration by iteration
// (docs/physics.md §12.5 "The engine"): continuous batching with chunked prefill under a token
// budget and a sequence limit, KV admission by paged blocks, preemption by recompute, first come
// first served. The rules are vLLM V1's scheduler (vllm/v1/core/sched/scheduler.py,
// Scheduler.schedule, v0.8–0.11):
//   1. the running sequences first, in admission order: each gets its remaining tokens (a
//      prompt's next chunk, or one decode token), cut to the budget left; when its KV blocks
//      cannot be allocated the most recently admitted running sequence is preempted (its blocks
//      freed, its KV recomputed later: it goes back to the head of the queue) until they can,
//      or it is itself the one preempted;
//   2. then, if nothing was preempted, waiting requests in arrival order while the budget, the
//      sequence limit and the free blocks allow: each gets its prompt (with chunked prefill, cut
//      to the budget left; without, whole or not at all).
// A sequence's cache holds `computed` tokens; when a scheduled chunk brings it to its prompt and
// the tokens generated so far, a token is sampled (the first token at the end of its prefill).
// A recomputed sequence recomputes its prompt and its generated tokens before it samples again.
//
// Preemption modes (docs/physics.md §12.5 "Preemption"): recompute (above; vLLM V1, SGLang's
// retract); swap (vLLM V0's PreemptionMode.SWAP: the preempted sequence's blocks are copied to
// host memory and back when it is admitted again, its computed tokens kept; each iteration takes
// the copies of its swaps out and in beside its compute); no_evict (TensorRT-LLM's default
// capacity scheduler policy GUARANTEED_NO_EVICT: a request is admitted only when the blocks of its
// prompt and its whole output fit beside what the running requests will still take; nothing is
// ever preempted).
//
// Roles (analysis/requests/disagg_sim.hpp): an aggregated replica runs requests to their end; a
// prefill replica hands each request over when its first token is sampled, its KV blocks held
// until release(); a decode replica takes requests whose prompt KV it reserved (reserve()) and
// received (enqueue_prefilled()), their first token already sampled.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "analysis/requests/prefix_cache.hpp"
#include "analysis/requests/request_stream.hpp"
#include "analysis/requests/step_memo.hpp"
#include "core/statistics/quantiles.hpp"
#include "scenario/schemas/scheduler_rules.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/scheduler_policy.hpp"

namespace tessera::requests {

enum class ReplicaRole : std::uint8_t { aggregated, prefill, decode };

// What the scheduling rules did (docs/physics.md §12.5 "Scheduling rules"): counts that say
// which rule shaped a run. The deferrals count attempts to start an iteration (a replica tries
// again at every event while it waits).
struct RuleEvents {
  std::int64_t decodes_held = 0;  // prefill_first: prefill batches run while sequences were decoding
  // attempts whose queue head the reservation (reserve_output), its no_evict commitment or too few
  // free KV blocks held back
  std::int64_t reserve_deferrals = 0;
  std::int64_t commit_deferrals = 0;
  std::int64_t block_deferrals = 0;
  std::int64_t budget_free_decodes =
      0;  // budget_counts prefill, running first: decodes the limit did not count
  void add(const RuleEvents& o) {
    decodes_held += o.decodes_held;
    reserve_deferrals += o.reserve_deferrals;
    commit_deferrals += o.commit_deferrals;
    block_deferrals += o.block_deferrals;
    budget_free_decodes += o.budget_free_decodes;
  }
};

struct EngineLimits {
  std::int64_t max_sequences = 256;  // running sequences (vLLM max_num_seqs)
  std::int64_t token_budget =
      8192;  // tokens per iteration, prefill and decode (max_num_batched_tokens); 0 = none
  bool chunked_prefill = true;
  std::int64_t kv_blocks = 0;      // KV blocks of the replica (the engine's count)
  std::int64_t block_tokens = 16;  // tokens per block
  Preemption preemption = Preemption::recompute;
  // swap: seconds to copy one block between the device and the host (its bytes at one PE over the
  // host link's bandwidth), and the latency of one copy (per iteration that swaps)
  double swap_block_s = 0;
  double swap_latency_s = 0;
  // The built-in scheduling rules (the framework's, scheduler_rules.hpp); a policy plugin, when
  // set, decides in their place (its decisions checked against these limits).
  SchedulerRules rules;
  const SchedulerPolicy* policy = nullptr;
  // Automatic prefix caching (prefix_cache.hpp): blocks shared by content, kept until evicted, and
  // the offload tiers below HBM (empty: none).
  bool prefix_caching = false;
  std::vector<OffloadTier> offload;
  bool offload_write_through =
      false;  // a block is copied to the first tier as it fills (else as HBM evicts it)
};

// What prefix caching did on one replica, or summed (blocks).
struct CacheFigures {
  bool on = false;                   // the replicas cached prefixes
  std::int64_t looked_up = 0;        // prompt blocks of admitted requests that could have hit
  std::int64_t hits = 0;             // of them found in HBM
  std::vector<std::int64_t> loaded;  // of them loaded from each offload tier
  std::int64_t declined = 0;         // tier hits recomputed because the copy was slower
  void add(const CacheFigures& o) {
    on = on || o.on;
    looked_up += o.looked_up;
    hits += o.hits;
    declined += o.declined;
    if (loaded.size() < o.loaded.size()) loaded.resize(o.loaded.size(), 0);
    for (std::size_t i = 0; i < o.loaded.size(); ++i) loaded[i] += o.loaded[i];
  }
};

// What became of one request (seconds from the simulation's start).
struct RequestOutcome {
  Request request;
  double first_scheduled_s = 0;  // the start of the first iteration that worked on it
  double first_token_s = 0;
  double finish_s = 0;
  double max_gap_s = 0;  // the longest gap between two of its tokens
  std::int64_t preemptions = 0;
  std::int64_t replica = 0;
};

// Gaps between two tokens of a request (inter-token latencies): `count` gaps of `gap_s`, the
// first of them `request`'s (the sequences of an iteration that decoded in the one before
// wait the same gap, and are reported together, attributed to the first of them).
using TokenGapSink = std::function<void(const Request& request, double gap_s, std::uint64_t count)>;

// Which equal token gaps of one iteration one sink call may carry together: those of requests
// in the same measurement batch (metric_stats.hpp cuts the measured requests into batches by
// id), so that each batch's statistics hold its own requests' gaps; warm-up ones together.
struct GapGrouping {
  std::uint64_t warmup = 0;
  std::uint64_t measured = 1;
  std::size_t batches = 0;  // 0: one batch
  std::uint64_t key(std::uint64_t id) const {
    return id < warmup
               ? ~std::uint64_t{0}
               : batch_of(static_cast<std::size_t>(id - warmup), static_cast<std::size_t>(measured), batches);
  }
};

class Replica;
// Whether request `r` can never run on a replica of `tokens` KV tokens under `lim`'s rules: its
// prompt and output do not fit, or (reserve_output) its prompt and clipped output reach the whole
// KV, which SGLang's admission never grants.
TESSERA_API bool never_fits(const EngineLimits& lim, const Request& r, std::int64_t tokens);
// What a scheduler plugin sees of a request as it arrives (nothing computed yet).
TESSERA_API SchedSequence sched_sequence(const Request& r);
// Adds replica `r`'s preemptions, swapped blocks, rule events and iterations to the totals given.
TESSERA_API void add_replica_totals(const Replica& r, std::int64_t& preemptions, std::int64_t& swapped_blocks,
                                    RuleEvents& events, std::uint64_t& iterations);

// Throws when a replica of `replicas` (all idle, no event left) still holds requests: the
// policy's error when a policy decides (it left them), else the engine's.
TESSERA_API void check_not_stalled(const std::vector<Replica>& replicas, const SchedulerPolicy* policy);
// The same, unconditionally.
[[noreturn]] TESSERA_API void throw_stalled(const SchedulerPolicy* policy, const std::string& replica);

class TESSERA_API Replica {
 public:
  Replica(const EngineLimits& limits, StepMemo& steps, std::int64_t index,
          ReplicaRole role = ReplicaRole::aggregated);

  // A prefill replica's hand-over: called from finish() with each request whose first token was
  // sampled (and that has more to generate), the KV blocks it keeps holding until release() and
  // what no_evict committed to it.
  using Handoff = std::function<void(const RequestOutcome& o, std::int64_t blocks, std::int64_t committed)>;
  void set_handoff(Handoff h) { handoff_ = std::move(h); }
  // Frees `blocks` a handed-over request held (its KV has left), with what no_evict committed.
  void release(std::int64_t blocks, std::int64_t committed);
  // A decode replica: reserves the blocks of `r`'s prompt KV (and, no_evict, commits its whole
  // prompt and output); false when they do not fit now. `blocks`, `committed`: what it took.
  bool reserve(const Request& r, std::int64_t& blocks, std::int64_t& committed);
  // A decode replica: the request whose KV it reserved (reserve()) arrived at `now_s`, its first
  // token sampled by the prefill; it waits for a place in the running batch.
  void enqueue_prefilled(const RequestOutcome& o, std::int64_t blocks, std::int64_t committed, double now_s);
  // Blocks a request of `tokens` tokens holds.
  std::int64_t blocks_of(std::int64_t tokens) const { return blocks_for(tokens); }

  // A request routed here at `now_s`.
  void enqueue(const Request& r);
  // Starts an iteration at `now_s` if there is work it can schedule; returns whether it did
  // (busy until busy_until()).
  bool start(double now_s);
  // Ends the running iteration: tokens sampled, finished requests reported.
  void finish(const std::function<void(const RequestOutcome&)>& on_done, const TokenGapSink& on_gap);
  // How finish() may pass equal gaps together (default: one batch, any requests together).
  void set_gap_grouping(const GapGrouping& g) { grouping_ = g; }

  bool busy() const { return busy_; }
  double busy_until() const { return busy_until_; }
  double started_s() const { return started_s_; }  // the running (or last) iteration's start
  std::size_t outstanding() const { return waiting_.size() + running_.size(); }
  std::size_t waiting() const { return waiting_.size(); }
  std::int64_t used_blocks() const { return used_blocks_; }
  std::int64_t preemptions() const { return preemptions_; }
  std::int64_t swapped_blocks() const { return swapped_blocks_; }  // swap: blocks copied out and in
  std::uint64_t iterations() const { return iterations_; }
  const RuleEvents& rule_events() const { return events_; }
  CacheFigures cache_figures() const;

 private:
  GapGrouping grouping_;
  // What a policy sees (SchedSequence: generated, computed, blocks, ...) and the engine's own.
  struct Sequence : SchedSequence {
    RequestOutcome outcome;
    std::int64_t committed = 0;  // no_evict: blocks committed to it (prompt and whole output)
    double last_token_s = 0;
    std::uint64_t stamp = 0;  // a policy's decision: the iteration that last named it
    bool scheduled_once = false;
    bool swapped = false;  // swap: its `computed` tokens' KV waits in host memory
    BlockHold hold;        // prefix caching: its blocks
  };
  class Queues;
  class Decision;
  using Act = SchedulerDecision::Act;
  using Entry = SchedulerDecision::Entry;
  // The decision's entries (policy_entries_'s first policy_size_).
  std::span<const Entry> entries() const { return {policy_entries_.data(), policy_size_}; }
  // A policy's decision checked (replica_policy.cpp): throws the plugin's error at the first
  // problem.
  void check_decision(const EngineState& e);
  void apply_decision();
  void apply_runs(std::uint64_t moved);        // runs with preemptions or out of order
  void apply_admissions(std::uint64_t moved);  // and the admissions, the preempted back in the queue
  [[noreturn, gnu::cold, gnu::noinline]] void refuse(const std::string& what) const;
  struct Scheduled {
    std::size_t running_index;
    std::int64_t tokens;
  };

  // A sequence decoding one token an iteration (its prompt and any recomputation done).
  static bool decoding(const SchedSequence& s) { return s.need() == 1 && s.computed >= s.input; }
  // Whether `tokens` scheduled for `s` are one decode token, as an iteration prices them (a
  // one-token chunk after its prompt; the iteration's shape and the budget's count agree on it).
  static bool decode_token(const SchedSequence& s, std::int64_t tokens) {
    return tokens == 1 && s.computed >= s.input;
  }
  // SGLang's retract order: fewer output tokens first, then the longer prompt.
  static bool fewer_outputs(const SchedSequence& a, const SchedSequence& b) {
    return a.generated < b.generated || (a.generated == b.generated && a.input > b.input);
  }
  // The tokens new requests may still take per the token budget (none: no limit).
  std::int64_t budget_limit() const {
    return limits_.token_budget > 0 ? limits_.token_budget : std::numeric_limits<std::int64_t>::max();
  }
  std::int64_t blocks_for(std::int64_t tokens) const {
    return (tokens + limits_.block_tokens - 1) / limits_.block_tokens;
  }
  // The blocks `s` needs beyond those it holds to cache `n` more tokens (no division while its
  // last block has room: the common decode step).
  std::int64_t more_blocks(const SchedSequence& s, std::int64_t n) const {
    const std::int64_t t = s.computed + n;
    return t <= s.blocks * limits_.block_tokens ? 0 : blocks_for(t) - s.blocks;
  }
  // The running sequence to preempt, among those from index `from` on (the rules' victim).
  std::size_t victim(std::size_t from) const;
  // prefill_first: the decoding sequence to retract (the rules' victim among them).
  std::size_t decoding_victim() const;
  // prefill_first: a prefill batch into scheduled_ (decode-only waiting sequences join the running
  // ones unscheduled); whether one was formed.
  bool prefill_batch();
  // Preempts running sequence i: its blocks given up, back at the head of the queue.
  void preempt(std::size_t i);
  // `s` (moved from) joins the running sequences with `n` tokens scheduled: `more` blocks allocated,
  // `commit` committed (no_evict), a swapped-out one's KV copied back.
  void join_running(Sequence& s, std::int64_t n, std::int64_t more, std::int64_t commit);
  // Admits the head of the queue if the budget, the blocks, no_evict's commitment and
  // reserve_output's room allow; false (nothing changed) otherwise.
  bool admit_front(std::int64_t& budget, double& room);
  // reserve_output: the tokens new requests may still reserve (SGLang rem_total_tokens); and
  // whether `s` fits in `room`, taking its share.
  double reserve_room() const;
  // reserve_output: `s`'s output tokens still to come, at most the rules' clip.
  std::int64_t reserved_output(const SchedSequence& s) const {
    return std::min<std::int64_t>(std::max<std::int64_t>(s.output - s.generated, 0),
                                  limits_.rules.clip_output);
  }
  bool reserve_admits(const Sequence& s, std::int64_t cached, double& room) const;
  // `more` blocks for `s` from the free ones (prefix caching: from the free queue's head).
  void take(Sequence& s, std::int64_t more) {
    s.blocks += more;
    used_blocks_ += more;
    if (cache_) cache_->allocate(s.hold, more);
  }
  // `s` gives up its blocks (prefix caching: those no other sequence holds become free).
  void drop(Sequence& s) { used_blocks_ -= cache_ ? cache_->release(s.hold) : s.blocks; }
  // Prefix caching: the tokens the queue's head would find cached (probe_ says where), the tier
  // hits dropped when their copy takes longer than computing them adds.
  std::int64_t cached_tokens(const Sequence& s);
  // ... and taken by it on admission (its blocks and computed tokens; its copies this iteration).
  void take_cached(Sequence& s, std::int64_t cached);
  // The copies into HBM of `blocks` blocks from each offload tier (s): each tier's latency, once,
  // and its blocks.
  double load_time(const std::vector<std::int64_t>& blocks) const;
  // Frees `s`'s blocks as a preemption does (swap: its computed tokens kept, else recomputed);
  // returns the blocks to copy out to the host (0 unless swapped).
  std::int64_t give_up_blocks(Sequence& s);
  bool try_start(double now_s);
  // The built-in rules of a prefill-first engine (SGLang, replica_prefill_first.cpp).
  bool try_start_prefill_first(double now_s);
  // A policy plugin's decision, checked and applied (replica_policy.cpp).
  bool try_start_policy(double now_s, bool asked_again = false);
  // Times the iteration scheduled_ describes, from `now_s`.
  void launch(double now_s);
  // A new sequence for request `r`.
  Sequence sequence_of(const Request& r) const;
  bool evict_waiting_holder();
  // What a request commits under no_evict at admission (0 under the other modes).
  std::int64_t commitment(const Request& r) const;

  EngineLimits limits_;
  std::unique_ptr<PrefixCache> cache_;  // prefix caching on
  CacheProbe probe_;
  std::int64_t declined_blocks_ = 0, probe_declined_ = 0;
  std::vector<std::int64_t> load_blocks_now_;  // prefix caching: this iteration's blocks from each tier
  StepMemo& steps_;
  std::int64_t index_;
  ReplicaRole role_;
  Handoff handoff_;
  std::int64_t committed_blocks_ = 0;  // no_evict: blocks committed to admitted requests
  std::int64_t swap_blocks_now_ = 0;   // swap: blocks copied in this iteration
  std::int64_t swapped_blocks_ = 0;
  std::int64_t evicted_swap_blocks_ = 0;  // swap: blocks of evicted waiting holders, copied out next
  std::deque<Sequence> waiting_;
  std::vector<Sequence> running_;  // admission order (reserved: max_sequences)
  std::vector<Scheduled> scheduled_;
  std::int64_t used_blocks_ = 0;
  std::int64_t preemptions_ = 0;
  std::uint64_t iterations_ = 0;
  double new_token_ratio_ = 0;  // reserve_output: SGLang's new_token_ratio now
  // A policy's decision and the scratch its application uses (reserved once, reused).
  std::vector<Entry> policy_entries_;
  std::size_t policy_size_ = 0;
  std::vector<Sequence> policy_out_;
  std::vector<std::int64_t> policy_tokens_;
  std::uint64_t stamp_ = 0;
  // Progress: iterations since a token was last sampled, and the longest request seen (its input
  // and output tokens): check_progress() bounds the first by the second (docs/limits.md).
  static constexpr std::uint64_t kProgressMargin = 100'000;
  std::uint64_t iterations_without_token_ = 0;
  std::int64_t longest_request_ = 0;
  void check_progress();
  bool runs_in_order_ = true;  // the decision's runs name running sequences in increasing order
  RuleEvents events_;
  bool busy_ = false;
  double started_s_ = 0, busy_until_ = 0;
};

}  // namespace tessera::requests
