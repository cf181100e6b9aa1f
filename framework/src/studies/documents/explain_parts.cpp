#include "studies/documents/explain_parts.hpp"

#include <string_view>

namespace tessera::explain_parts {

// Communication time a stage hides behind compute, per occurrence: a pure communication stage
// (no FLOPs, no HBM bytes) whose visible time is below its comm_s was overlapped with the GEMM
// before it (tp_overlap: chunked, docs/physics.md §7). attn.cp reports its overlap in visible_s.
double overlapped_s(const Stage& s) {
  if (s.flops > 0 || s.hbm_bytes > 0 || s.visible_s >= s.comm_s) return 0;
  return s.comm_s - s.visible_s;
}

const char* ttft_formula() {
  return "TTFT = sum_j t_stage(j) + (pp-1)*(t_stage(last) + hop) + lm_head; stages listed for one pipeline "
         "stage "
         "(ceil(L/pp) layers), averaged over chunks";
}

// Parallel block: which stage carries the merged TP reduction ("" when nothing is merged).
std::string parallel_block_note(const Session& s, const Evaluation& e) {
  const ModelSpec& m = s.model();
  if (!m.parallel_block) return "";
  const Workload& w = s.scenario().workload;
  if (w.scope == Scope::attention)
    return "parallel block, scope attention: attn.tp_reduce is the attention's own all-reduce (no FFN to "
           "merge with)";
  const ReduceMerge r = parallel_block_merge(m, e.config, w.mode, w.scope);
  if (!r.dense && !r.moe) return "parallel block: tp = 1, no tensor-parallel reduction to merge";
  const bool dense = m.dense_ffn_layers() > 0, moe = m.moe_layers() > 0;
  std::string carriers;
  if (dense && r.dense) carriers = "ffn.reduce";
  if (moe && r.moe) carriers += std::string(carriers.empty() ? "" : " and ") + "moe.combine";
  std::string note = "parallel block: attention and FFN read the same input";
  if (!carriers.empty())
    note += "; " + carriers +
            " also reduces the attention output's partial sums (one TP reduction per layer, no "
            "attn.tp_reduce there)";
  if (moe && !r.moe)
    note +=
        "; the MoE layers keep attn.tp_reduce: moe.combine is an all-to-all, which sums nothing across "
        "the TP group";
  return note;
}

// The number formats (docs/physics.md §1): the three base formats, the attention math, and
// each part, dispatch payload only where the model has it.
std::string formats_line(const ModelSpec& m) {
  const DTypes& d = m.dtype;
  std::string line = std::string("weights ") + dtype_name(d.weights);
  const auto part = [&](const char* name, WeightPart p) {
    if (d.weights_of(p) != d.weights) line += std::string(", ") + name + " " + dtype_name(d.weights_of(p));
  };
  part("attention weights", WeightPart::attention);
  if (m.dense_ffn_layers() > 0) part("ffn weights", WeightPart::ffn);
  if (m.has_moe) part("expert weights", WeightPart::experts);
  part("lm_head weights", WeightPart::lm_head);
  line += std::string(", kv ") + dtype_name(d.kv) + ", attention " + dtype_name(d.attention_kernel()) +
          ", activations " + dtype_name(d.activations);
  if (m.has_moe) line += std::string(", dispatch ") + dtype_name(d.dispatch_payload());
  if (m.layers_of(AttentionKind::linear) + m.layers_of(AttentionKind::mamba) > 0)
    line += std::string(", state ") + dtype_name(d.state.value_or(d.activations));
  return line;
}

// The step whose collectives explain lists (prefill: the first chunk).
std::unique_ptr<StepWork> explained_work(const Session& s, const Evaluation& e) {
  auto w = std::make_unique<StepWork>();
  s.evaluator().explained_work(e.config, e.layout, 0, *w);
  return w;
}

// The work stage of stage i (the latency models time work stage i into stage i).
const StageWork* work_of(const StepWork& w, const Stage& s, std::size_t i) {
  if (i < static_cast<std::size_t>(w.size) && std::string_view(w.stages[i].name) == s.name)
    return &w.stages[i];
  for (int k = 0; k < w.size; ++k)
    if (std::string_view(w.stages[static_cast<std::size_t>(k)].name) == s.name)
      return &w.stages[static_cast<std::size_t>(k)];
  return nullptr;
}

std::string chunk_note(const Session& s) {
  const Workload& w = s.scenario().workload;
  if (w.mode != Mode::prefill || w.chunk_count() <= 1) return "";
  return "; chunk 1 of " + std::to_string(w.chunk_count()) + ", " + std::to_string(w.chunk_tokens()) +
         " tokens; the table averages the chunks";
}

}  // namespace tessera::explain_parts
