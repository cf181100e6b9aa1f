// scheduler/priority_classes: the guide's worked scheduler plugin (docs/plugin-guide.md §10 "The
// scheduler kind"). Priority classes as vLLM's `--scheduling-policy priority` runs them
// (vllm/v1/core/sched/scheduler.py, SchedulingPolicy.PRIORITY): running sequences first, in
// admission order, each its next tokens within the batched-token limit; when a sequence's KV
// blocks do not fit, the running sequence of the lowest class (the highest number), latest
// arrival first, is preempted (`max(running, key=(priority, arrival_time))`); then, if nothing was
// preempted, waiting requests in (class, arrival) order while the limits allow, stopping at the
// first that does not fit (under no_evict, whose commitment does not fit). With one class the
// admissions are first come, first served and the victim is the latest arrival.
// Parameter `aging` (seconds, 0 = off): a waiting request gains one class per `aging` seconds
// waited (a guard against starving the low classes; not in vLLM).
#include <tessera/sdk.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using namespace tessera;

// One thread's scratch (the thread-local is looked up once a call).
struct Scratch {
  std::vector<std::int64_t> tokens;
  std::vector<char> gone, taken;
};

class PriorityClasses final : public SchedulerPolicy {
 public:
  explicit PriorityClasses(double aging_s) : aging_s_(aging_s) {}

  void schedule(const EngineState& e, const SchedulerQueues& q, SchedulerDecision& out) const override {
    // Scratch reused by this thread across calls (a policy object is shared by simulations that
    // run on several threads): the plan is made first, then written out.
    thread_local Scratch scratch;
    std::vector<std::int64_t>& tokens = scratch.tokens;  // per running sequence: tokens planned
    std::vector<char>& gone = scratch.gone;              // preempted running sequences
    std::vector<char>& taken = scratch.taken;            // admitted waiting requests
    const std::size_t nr = q.running_count(), nw = q.waiting_count();
    tokens.assign(nr, 0);
    gone.assign(nr, 0);
    std::int64_t budget = e.token_budget > 0 ? e.token_budget : std::numeric_limits<std::int64_t>::max();
    std::int64_t free = e.free_blocks, running = static_cast<std::int64_t>(nr);
    std::int64_t uncommitted = e.uncommitted_blocks;  // no_evict: what admissions may commit
    bool preempted = false;
    const auto blocks = [&](std::int64_t t) { return (t + e.block_tokens - 1) / e.block_tokens; };
    // The blocks `s` needs beyond its own for `n` more tokens (no division while its last block has room).
    const auto more_blocks = [&](const SchedSequence& s, std::int64_t n) {
      const std::int64_t t = s.computed + n;
      return t <= s.blocks * e.block_tokens ? 0 : blocks(t) - s.blocks;
    };
    for (std::size_t i = 0; i < nr && budget > 0; ++i) {
      if (gone[i]) continue;
      const SchedSequence& s = q.running(i);
      const std::int64_t n = std::min(s.need(), budget);
      const std::int64_t more = more_blocks(s, n);
      bool itself = false;
      while (more > free && e.may_preempt) {
        const std::size_t v = victim(q, gone);
        gone[v] = 1;
        preempted = true;
        --running;
        free += q.running(v).blocks;
        if (tokens[v] > 0) {  // planned already: its tokens and blocks come back
          budget += tokens[v];
          free += blocks(q.running(v).computed + tokens[v]) - q.running(v).blocks;
          tokens[v] = 0;
        }
        if (v == i) {
          itself = true;
          break;
        }
      }
      if (itself || more > free) break;  // it cannot run, nor can those admitted after it
      tokens[i] = n;
      free -= more;
      budget -= n;
    }
    for (std::size_t i = 0; i < nr; ++i) {
      if (gone[i]) out.preempt(i);
      if (tokens[i] > 0) out.run(i, tokens[i]);
    }
    if (preempted || nw == 0 || running >= e.max_sequences || budget <= 0) return;
    taken.assign(nw, 0);  // the scan of the queue only when a request may be admitted
    while (budget > 0 && running < e.max_sequences) {
      const std::size_t w = best_waiting(e, q, taken);
      if (w == nw) break;
      const SchedSequence& s = q.waiting(w);
      if (!e.chunked_prefill && s.need() > budget) break;
      const std::int64_t n = std::min(s.need(), budget);
      const std::int64_t more = more_blocks(s, n);
      if (more > free || (!e.may_preempt && s.commit_blocks > uncommitted)) break;
      uncommitted -= s.commit_blocks;
      taken[w] = 1;
      out.admit(w, n);
      free -= more;
      budget -= n;
      ++running;
    }
  }

 private:
  // The running sequence of the lowest class, latest arrival first, not yet preempted.
  static std::size_t victim(const SchedulerQueues& q, const std::vector<char>& gone) {
    std::size_t v = q.running_count();
    for (std::size_t i = 0; i < q.running_count(); ++i) {
      if (gone[i]) continue;
      if (v == q.running_count()) {
        v = i;
        continue;
      }
      const SchedSequence& a = q.running(i);
      const SchedSequence& b = q.running(v);
      // max() keeps the first of equals
      if (a.priority > b.priority || (a.priority == b.priority && a.arrival_s > b.arrival_s)) v = i;
    }
    return v;
  }
  // The waiting request to admit next: the lowest class (after aging), then the earliest arrival.
  std::size_t best_waiting(const EngineState& e, const SchedulerQueues& q,
                           const std::vector<char>& taken) const {
    std::size_t best = q.waiting_count();
    double best_class = 0, best_arrival = 0;
    for (std::size_t i = 0; i < q.waiting_count(); ++i) {
      if (taken[i]) continue;
      const SchedSequence& s = q.waiting(i);
      double c = static_cast<double>(s.priority);
      if (aging_s_ > 0)
        c -= static_cast<double>(static_cast<std::int64_t>((e.now_s - s.arrival_s) / aging_s_));
      if (best == q.waiting_count() || c < best_class || (c == best_class && s.arrival_s < best_arrival)) {
        best = i;
        best_class = c;
        best_arrival = s.arrival_s;
      }
    }
    return best;
  }
  double aging_s_;
};

const ParamSpec kParams[] = {
    {"aging", ParamType::quantity, Dimension::time, "0 s", 0.0, kNoMax, nullptr, 0,
     "a waiting request gains one class per this time waited (0: no aging)"},
};

// Parameters arrive validated, defaulted and in SI units (seconds here).
PluginObject* create(const ParamSet& p) { return new PriorityClasses(p.real("aging")); }

const PluginDescriptor kDescriptor = make_descriptor({
    .kind = PluginKind::scheduler,
    .name = "priority_classes",
    .version = "1.0.0",
    .summary =
        "priority classes as vLLM's priority policy: (class, arrival) admission, lowest class preempted",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
