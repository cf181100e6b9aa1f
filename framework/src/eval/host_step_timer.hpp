#pragma once
// The host's StepTimer (tessera/kinds/serving_model.hpp) for one configuration: each call asks the
// evaluator's one context a question — a workload other than the evaluator's, built on the stack —
// through the same evaluator (and so the same latency and
// memory plugins) that `tessera run` uses, in the caller's scratch buffer. Used by the serving
// evaluator (eval/serving_evaluator.hpp) and by validate-data's serving rows.
#include <cstdint>

#include "eval/engine_kv.hpp"
#include "eval/evaluator.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera {

class TESSERA_API HostStepTimer final : public StepTimer {
 public:
  // `layout`: the configuration's (Evaluator::layout_for); it and `c` must outlive the timer.
  HostStepTimer(const Evaluator& ev, const ParallelConfig& c, const Layout& layout, Evaluation& scratch);

  double decode_step(std::int64_t batch, double context) override;
  double prefill(std::int64_t batch, std::int64_t input, std::int64_t chunk) override;
  double prefill_chunk(std::int64_t tokens, std::int64_t prefix, bool last) override;
  double decode_iteration(std::int64_t batch, double context) override;
  double mixed_step(std::int64_t batch, double context, std::int64_t prompts, std::int64_t tokens,
                    std::int64_t prefix, bool last) override;
  double verify_step(std::int64_t batch, double context, std::int64_t tokens) override;
  double draft_step(std::int64_t batch, double context) override;
  bool kv_fits(std::int64_t batch, std::int64_t context) override;
  bool kv_admits(std::int64_t batch, std::int64_t input, std::int64_t output, bool staggered) override;

  // The serving point's token budget: the profile pass of a framework's KV rule (set before the
  // serving plugin runs; 0: the prompt).
  void set_token_budget(std::int64_t tokens) {
    if (tokens != profile_tokens_) capacity_known_ = false;
    profile_tokens_ = tokens;
  }
  // The serving point's batch: the engine's max sequences (vLLM's profile samples that many).
  void set_max_sequences(std::int64_t sequences) {
    if (sequences != max_sequences_) capacity_known_ = false;
    max_sequences_ = sequences;
  }
  // The drafter draft_step times (serving.speculative): a head of `fc_inputs` hidden sizes in, its
  // layer the model's MoE one when `moe`. Unset: draft_step refuses (a logic error).
  void set_draft_head(double fc_inputs, bool moe) {
    draft_fc_inputs_ = fc_inputs;
    draft_moe_ = moe;
    draft_set_ = true;
  }
  // A separate draft model (method draft): draft_step times its whole decode step on `draft` at
  // configuration `dc`, in `scratch` (its layout set: Evaluator::layout_for). They must outlive the
  // timer.
  void set_draft_model(const Evaluator& draft, const ParallelConfig& dc, Evaluation& scratch) {
    draft_model_ = &draft;
    draft_config_ = &dc;
    draft_scratch_ = &scratch;
    draft_set_ = true;
  }
  // The memory model's usage of workload `w` on this configuration, with a drafting point's draft
  // model (set_draft_model, k > 0) held beside the model: its weights and KV added, the fit decided
  // again (its transient set runs at other moments than the model's).
  void memory_of(const Workload& w, MemoryUsage& m) const;
  // The serving point's draft length k: the engine loads its drafter (the KV rule counts it) only
  // when k > 0.
  void set_draft_tokens(std::int64_t k) {
    if ((k > 0) != (draft_tokens_ > 0)) capacity_known_ = false;
    draft_tokens_ = k;
  }
  // The framework's KV capacity for this configuration (engine false without one).
  const EngineKvCapacity& engine_capacity();

  // After prefill(): the time between two such prefills of a stream at the pipeline's pace
  // (pp > 1: the busiest stage's; else the prefill's latency). Host only, not in the SDK.
  double prefill_period() const { return e_.prefill_period_s; }

 private:
  Workload step_workload(Mode mode, std::int64_t batch, std::int64_t context, std::int64_t chunk) const;

  const Evaluator& ev_;
  const ParallelConfig& c_;
  const Layout& layout_;
  Evaluation& e_;
  std::int64_t profile_tokens_ = 0;
  std::int64_t max_sequences_ = 0;
  bool capacity_known_ = false;
  EngineKvCapacity capacity_;
  double draft_fc_inputs_ = 0;
  bool draft_moe_ = false, draft_set_ = false;
  std::int64_t draft_tokens_ = 0;
  const Evaluator* draft_model_ = nullptr;
  const ParallelConfig* draft_config_ = nullptr;
  Evaluation* draft_scratch_ = nullptr;
};

}  // namespace tessera
