#pragma once
// Steps built by hand for the layer-kind tests (test_layer_kinds.cpp, test_recurrent_layers.cpp):
// a model's decode step or prefill chunk on one DGX-H100 PE, a stage by name, and the attention
// core's work summed over its kinds.
#include <catch2/catch.hpp>

#include <cstring>

#include "fixtures.hpp"
#include "tessera/physics/step_work.hpp"

namespace layer_kinds {

using namespace tessera;
using namespace tessera::test;

inline const StageWork* stage(const StepWork& w, const char* name) {
  for (int i = 0; i < w.size; ++i)
    if (std::strcmp(w.stages[static_cast<std::size_t>(i)].name, name) == 0)
      return &w.stages[static_cast<std::size_t>(i)];
  return nullptr;
}

// The step's attention-core work over all its kinds: FLOPs and bytes, each times its count.
struct CoreSum {
  double flops = 0, bytes = 0, count = 0;
};
inline CoreSum core_sum(const StepWork& w) {
  CoreSum s;
  for (int i = 0; i < w.size; ++i) {
    const StageWork& st = w.stages[static_cast<std::size_t>(i)];
    if (std::strncmp(st.name, "attn.core", 9) != 0) continue;
    s.flops += st.count * st.flops;
    s.bytes += st.count * st.hbm_bytes;
    s.count += st.count;
  }
  return s;
}

inline StepWork build(const ModelSpec& m, const Workload& w, const StepShape& sh, ParallelConfig c = {}) {
  const MachineSpec mach = dgx_h100();
  const EvalContext ctx = make_eval_context(m, mach);
  Layout lay;
  compute_layout(m, mach, w, c, lay);
  REQUIRE(lay.valid);
  StepWork out;
  build_step_work(ctx, w, c, lay, sh, out);
  return out;
}

inline StepShape decode_shape(const ModelSpec& m, std::int64_t batch, double S) {
  StepShape sh;
  sh.mode = Mode::decode;
  sh.batch = batch;
  sh.tokens = batch;
  sh.kv_cached = S;
  sh.layers = static_cast<double>(m.layers);
  sh.dense_layers = static_cast<double>(m.dense_ffn_layers());
  sh.ffn_free_layers = static_cast<double>(m.ffn_free_layers());
  return sh;
}

inline StepShape chunk_shape(const ModelSpec& m, std::int64_t c, double P) {
  StepShape sh;
  sh.mode = Mode::prefill;
  sh.batch = 1;
  sh.tokens = c;
  sh.kv_cached = P;
  sh.chunk = c;
  sh.layers = static_cast<double>(m.layers);
  sh.dense_layers = static_cast<double>(m.dense_ffn_layers());
  sh.ffn_free_layers = static_cast<double>(m.ffn_free_layers());
  return sh;
}

}  // namespace layer_kinds
