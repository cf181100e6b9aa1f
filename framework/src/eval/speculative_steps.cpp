// The steps of speculative decoding (docs/physics.md §12.8): Evaluator::verify_time and
// Evaluator::draft_head_time and Evaluator::draft_model_time (eval/evaluator.hpp).
#include <algorithm>

#include "eval/evaluator.hpp"

namespace tessera {

namespace {

// The time of the step's own work (scratch.chunk_stages' first work.size stages): what a latency
// model appends after them (a per-step host cost, the launch time the GPU does not hide) is the
// iteration's, paid once by its verify step.
double work_stages_time(const Evaluation& scratch) {
  double t = 0;
  const int n = std::min(scratch.work.size, static_cast<int>(scratch.chunk_stages.size));
  for (int i = 0; i < n; ++i) {
    const Stage& s = scratch.chunk_stages.items[static_cast<std::size_t>(i)];
    t += s.count * s.visible_s;
  }
  return t;
}

}  // namespace

double Evaluator::verify_time(const Workload& w, const ParallelConfig& c, std::int64_t queries,
                              Evaluation& scratch) const {
  StepShape sh = decode_shape(w, c);
  sh.queries = std::max<std::int64_t>(1, queries);
  sh.tokens = w.batch * sh.queries;
  return time_into(w, sh, StepKind::decode_step, 0, c, scratch.layout, scratch, scratch.chunk_stages);
}

double Evaluator::draft_head_time(const Workload& w, const ParallelConfig& c, double fc_inputs, bool moe,
                                  Evaluation& scratch) const {
  StepShape sh;
  sh.mode = Mode::decode;
  sh.batch = w.batch;
  sh.tokens = w.batch;
  sh.kv_cached = static_cast<double>(w.context);
  sh.layers = 1;
  sh.dense_layers = moe && ctx_.model->has_moe ? 0 : 1;
  sh.lm_head = true;
  sh.draft_fc_inputs = fc_inputs;
  time_into(w, sh, StepKind::decode_step, 0, c, scratch.layout, scratch, scratch.chunk_stages);
  return work_stages_time(scratch);
}

ParallelConfig Evaluator::draft_model_config(const ParallelConfig& c, const ModelSpec& draft) {
  ParallelConfig d = c;
  if (!draft.has_moe) {
    d.ep = 1;
    d.ffn_shard_scope = ParallelConfig{}.ffn_shard_scope;
  }
  return d;
}

double Evaluator::draft_model_time(const Workload& w, const ParallelConfig& c, Evaluation& scratch) const {
  const StepShape sh = decode_shape(w, c);
  time_into(w, sh, StepKind::decode_step, 0, c, scratch.layout, scratch, scratch.chunk_stages);
  return work_stages_time(scratch);
}

}  // namespace tessera
