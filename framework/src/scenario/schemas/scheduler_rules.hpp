#pragma once
// The scheduling rules an engine runs, as the request simulator implements them (docs/physics.md
// §12.5 "Scheduling rules", the table per framework version): a framework version's `scheduler:`
// block of data/frameworks.yaml with its `mixing` and `preemption`, read by
// scenario/serving_stacks/stack_scheduler.cpp. Without a framework: vLLM V1's.
#include <cstdint>
#include <string>

#include "tessera/export.hpp"

namespace tessera::requests {

// Which work an iteration takes first.
enum class StepOrder : std::uint8_t {
  // The running sequences (decode tokens and unfinished prompts' next chunks) in admission order,
  // then waiting requests in the budget left (vLLM V1 Scheduler.schedule; TensorRT-LLM's
  // MicroBatchScheduler: generation requests, then context chunks in what is left).
  running_first,
  // A prefill batch (an unfinished prompt's next chunk, then new requests) runs whenever one can
  // be formed, alone; the running sequences decode only when none can (SGLang
  // Scheduler.get_next_batch_to_run: "Run prefill first if possible").
  prefill_first,
};

// What the batched-token limit counts.
enum class BudgetCounts : std::uint8_t {
  all,      // prefill and decode tokens (vLLM max_num_batched_tokens, TensorRT-LLM max_num_tokens)
  prefill,  // a prefill batch's new prompt tokens (SGLang chunked_prefill_size, rem_chunk_tokens)
};

// Which running sequence is preempted when KV blocks run out.
enum class Victim : std::uint8_t {
  newest,         // the last admitted (vLLM V1: self.running.pop())
  fewest_output,  // the fewest output tokens, then the longest prompt (SGLang retract_decode)
};

// What admits a waiting request.
enum class Admission : std::uint8_t {
  blocks,  // the blocks of its first chunk are free (vLLM V1)
  // its prompt and its whole output (clipped) fit in the free tokens less what the running
  // requests are expected to still take, their remaining outputs x new_token_ratio (SGLang
  // PrefillAdder: rem_total_tokens)
  reserve_output,
};

struct SchedulerRules {
  StepOrder order = StepOrder::running_first;
  BudgetCounts budget = BudgetCounts::all;
  Victim victim = Victim::newest;
  Admission admission = Admission::blocks;
  // reserve_output (SGLang, python/sglang/srt/environ.py): new_token_ratio starts at `ratio_init`
  // (SGLANG_INIT_NEW_TOKEN_RATIO 0.7), falls by (init - min) / `decay_steps` per decode batch to
  // init x `ratio_min_factor` (0.14; 600 steps); after a retraction it is (the batch's output
  // tokens + `retract_steps` x its requests) / (their output lengths + 1), at most 1; a
  // request's remaining output is counted at most `clip_output` tokens (4096).
  double ratio_init = 0.7;
  double ratio_min_factor = 0.14;
  double decay_steps = 600;
  double retract_steps = 20;
  std::int64_t clip_output = 4096;
  bool mixed = true;  // prefill chunks share an iteration with decode tokens (`mixing: mixed`)
};

// "running_first", "prefill", "newest", ... as data/frameworks.yaml spells them.
TESSERA_API const char* step_order_name(StepOrder o);
TESSERA_API const char* budget_counts_name(BudgetCounts b);
TESSERA_API const char* victim_name(Victim v);
TESSERA_API const char* admission_name(Admission a);

}  // namespace tessera::requests
