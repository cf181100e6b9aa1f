#pragma once
// Kind `latency`: turns a step's reference work (physics/step_work.hpp) into time.
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/plugin/plugin_object.hpp"
#include "tessera/stage.hpp"

namespace tessera {

// Which step the host is timing (docs/plugin-guide.md §10 "What time_step is called with").
enum class StepKind : std::uint8_t {
  decode_step,     // a whole decode step: every layer (shape.layers = L), pp - 1 hops
  pipeline_stage,  // one pipeline stage of a pipeline-full decode: ceil(L/pp) layers, B/pp sequences
  prefill_chunk,   // prefill chunk `chunk_index` of `chunk_count`: all layers (pp = 1) or one stage's
  single_stage,    // one operator timed alone (validate-data rows): work holds one stage
  mixed_step,      // serving: decode tokens beside one prefill chunk (StepShape::mixed_*), all layers
};

TESSERA_API const char* step_kind_name(StepKind k);  // "decode_step", ...

// What time_step() is handed: the work, and the configuration, layout, shape and workload it was
// built for. `layout` says which machine level each group's collective crosses (LinkCost::level) and
// how many groups share an uplink; the work's collectives carry the same LinkCost.
struct StepCall {
  const StepWork& work;
  const ParallelConfig& config;
  const Layout& layout;
  const StepShape& shape;  // mode, sequences, tokens (T), context (kv_cached), chunk size, layers
  // The query the step answers (decode or prefill, never serve): the scenario's workload in
  // `run`, the step's own in a serving study (a decode step at a point's batch, a prefill chunk),
  // decode for an operator timed alone. The context beside it is the same for every question.
  const Workload& workload;
  StepKind kind =
      StepKind::decode_step;     // decode_step, pipeline_stage, prefill_chunk, single_stage, mixed_step
  std::int64_t chunk_index = 0;  // prefill_chunk: 0-based j; otherwise 0
  std::int64_t chunk_count = 1;  // prefill_chunk: chunks of the prompt; otherwise 1
};

class TESSERA_API LatencyModel : public PluginObject {
 public:
  ~LatencyModel() override;
  // Times every stage of `step.work` into `out`: copies name, block, count, flops, hbm and comm
  // bytes, and fills compute_s, memory_s, comm_s, visible_s and bound (and memory_tier when the
  // bytes are not served from HBM). Stage i of `out` is work stage i; a model may append
  // stages after the work's (the host's accounting reads only the first work.size). Per PE, per
  // occurrence. Called from several threads at once: must be const-safe and allocate nothing.
  virtual void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const = 0;
};

}  // namespace tessera
