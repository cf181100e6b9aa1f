// The host's StepTimer: eval/host_step_timer.hpp.
#include "eval/host_step_timer.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tessera {

HostStepTimer::HostStepTimer(const Evaluator& ev, const ParallelConfig& c, const Layout& layout,
                             Evaluation& scratch)
    : ev_(ev), c_(c), layout_(layout), e_(scratch) {
  e_.layout = layout;
}

double HostStepTimer::decode_step(std::int64_t batch, double context) {
  ev_.time_workload(step_workload(Mode::decode, batch, std::llround(context), 0), c_, e_);
  return e_.totals.latency_s;
}

double HostStepTimer::prefill(std::int64_t batch, std::int64_t input, std::int64_t chunk) {
  ev_.time_workload(step_workload(Mode::prefill, batch, input, chunk), c_, e_);
  return e_.totals.latency_s;
}

double HostStepTimer::prefill_chunk(std::int64_t tokens, std::int64_t prefix, bool last) {
  return ev_.chunk_time(step_workload(Mode::prefill, 1, prefix + tokens, tokens), c_, layout_, 1, tokens,
                        prefix, last, 0, 0, e_);
}

double HostStepTimer::decode_iteration(std::int64_t batch, double context) {
  const double step = decode_step(batch, context);
  const double pipelined = e_.totals.pipeline_throughput_tok_s;  // dp B / (pp t_stage); 0 if not full
  if (pipelined <= 0) return step;
  return static_cast<double>(c_.dp) * static_cast<double>(std::max<std::int64_t>(1, batch)) / pipelined;
}

double HostStepTimer::mixed_step(std::int64_t batch, double context, std::int64_t prompts,
                                 std::int64_t tokens, std::int64_t prefix, bool last) {
  const std::int64_t k = std::max<std::int64_t>(1, prompts);
  return ev_.chunk_time(step_workload(Mode::prefill, k, prefix + tokens, tokens), c_, layout_, k, tokens,
                        prefix, last, std::max<std::int64_t>(0, batch), context, e_);
}

double HostStepTimer::verify_step(std::int64_t batch, double context, std::int64_t tokens) {
  return ev_.verify_time(step_workload(Mode::decode, batch, std::llround(context), 0), c_, tokens, e_);
}

double HostStepTimer::draft_step(std::int64_t batch, double context) {
  if (!draft_set_) throw std::logic_error("draft_step: the scenario states no drafter (serving.speculative)");
  if (draft_model_)
    return draft_model_->draft_model_time(step_workload(Mode::decode, batch, std::llround(context), 0),
                                          *draft_config_, *draft_scratch_);
  return ev_.draft_head_time(step_workload(Mode::decode, batch, std::llround(context), 0), c_,
                             draft_fc_inputs_, draft_moe_, e_);
}

const EngineKvCapacity& HostStepTimer::engine_capacity() {
  if (!capacity_known_) {
    capacity_ = engine_kv_capacity(ev_, ev_.engine_kv().at_draft(draft_tokens_), c_, layout_, profile_tokens_,
                                   max_sequences_);
    capacity_known_ = true;
  }
  return capacity_;
}

bool HostStepTimer::kv_admits(std::int64_t batch, std::int64_t input, std::int64_t output, bool staggered) {
  if (!ev_.engine_kv().active()) return kv_fits(batch, input + output);
  const EngineKvCapacity& cap = engine_capacity();
  return engine_worst_tokens(batch, input, output, cap.block, staggered) <= cap.tokens;
}

bool HostStepTimer::kv_fits(std::int64_t batch, std::int64_t context) {
  if (ev_.engine_kv().active()) {
    const EngineKvCapacity& cap = engine_capacity();
    return engine_worst_tokens(batch, context, 0, cap.block, false) <= cap.tokens;
  }
  MemoryUsage m;
  memory_of(step_workload(Mode::decode, batch, context, 0), m);
  return m.fits;
}

void HostStepTimer::memory_of(const Workload& w, MemoryUsage& m) const {
  ev_.memory_of(w, c_, layout_, m);
  if (!draft_model_ || draft_tokens_ <= 0) return;
  MemoryUsage d;
  draft_model_->memory_of(w, *draft_config_, draft_scratch_->layout, d);
  m.weights_bytes += d.weights_bytes;
  m.kv_bytes += d.kv_bytes;
  m.used_bytes += d.weights_bytes + d.kv_bytes;
  m.fits = m.used_bytes <= m.budget_bytes;
}

Workload HostStepTimer::step_workload(Mode mode, std::int64_t batch, std::int64_t context,
                                      std::int64_t chunk) const {
  Workload w = ev_.workload();
  w.mode = mode;
  w.batch = std::max<std::int64_t>(1, batch);
  w.context = std::max<std::int64_t>(0, context);
  w.chunk = chunk;
  return w;
}

}  // namespace tessera
