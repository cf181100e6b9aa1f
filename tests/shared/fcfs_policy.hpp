#pragma once
// vLLM V1's scheduling rules without preemption written as a scheduler plugin's policy
// (tessera/kinds/scheduler_policy.hpp): the running sequences first in admission order, each its
// next tokens within the batched-token limit and the free KV blocks, then waiting requests in
// queue order while the limits allow. With no preemption needed it decides what the built-in
// rules decide: the tests check that (tests/requests/test_scheduler_policy.cpp) and the benchmark
// times the interface with it (bench/bench_requests.cpp, BM_SchedulerPolicy).
#include <algorithm>
#include <cstdint>
#include <limits>

#include "tessera/kinds/scheduler_policy.hpp"

namespace tessera::test {

class FcfsPolicy final : public SchedulerPolicy {
 public:
  void schedule(const EngineState& e, const SchedulerQueues& q, SchedulerDecision& out) const override {
    std::int64_t budget = e.token_budget > 0 ? e.token_budget : std::numeric_limits<std::int64_t>::max();
    std::int64_t free = e.free_blocks;
    const auto more_blocks = [&](const SchedSequence& s, std::int64_t n) {
      const std::int64_t t = s.computed + n;
      return t <= s.blocks * e.block_tokens ? 0 : (t + e.block_tokens - 1) / e.block_tokens - s.blocks;
    };
    for (std::size_t i = 0; i < q.running_count() && budget > 0; ++i) {
      const SchedSequence& s = q.running(i);
      const std::int64_t n = std::min(s.need(), budget);
      const std::int64_t more = more_blocks(s, n);
      if (more > free) return;
      out.run(i, n);
      free -= more;
      budget -= n;
    }
    auto running = static_cast<std::int64_t>(q.running_count());
    for (std::size_t j = 0; j < q.waiting_count() && budget > 0 && running < e.max_sequences; ++j) {
      const SchedSequence& s = q.waiting(j);
      const std::int64_t n = std::min(s.need(), budget);
      const std::int64_t more = more_blocks(s, n);
      if (more > free) return;
      out.admit(j, n);
      free -= more;
      budget -= n;
      ++running;
    }
  }
};

}  // namespace tessera::test
