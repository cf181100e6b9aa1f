#pragma once
// Kind `latency`: turns a step's reference work (physics/step_work.hpp) into time.
#include "tessera/export.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/plugin/plugin_object.hpp"
#include "tessera/stage.hpp"

namespace tessera {

class TESSERA_API LatencyModel : public PluginObject {
 public:
  ~LatencyModel() override;
  // Times every stage of `work` into `out`: copies name, block, count, flops, hbm and comm
  // bytes, and fills compute_s, memory_s, comm_s, visible_s and bound. Per PE, per
  // occurrence. Called from several threads at once: must be const-safe and allocate nothing.
  virtual void time_step(const EvalContext& ctx, const StepWork& work, StageList& out) const = 0;
};

}  // namespace tessera
