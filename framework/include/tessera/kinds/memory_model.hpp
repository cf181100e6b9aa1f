#pragma once
// Kind `memory`: bytes each PE holds, the budget, and whether the configuration fits.
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_result.hpp"
#include "tessera/plugin/plugin_object.hpp"
#include "tessera/workload.hpp"

namespace tessera {

class TESSERA_API MemoryModel : public PluginObject {
 public:
  ~MemoryModel() override;
  // The memory of configuration `c` for `workload` (decode or prefill: its batch, context and
  // chunk set the KV and the transient set; a serving study asks with each step's own).
  // Thread-safe, no allocation.
  virtual void evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                        const Layout& layout, MemoryUsage& out) const = 0;
};

}  // namespace tessera
