#pragma once
// Kind `memory`: bytes each PE holds, the budget, and whether the configuration fits.
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/physics/step_result.hpp"
#include "tessera/plugin/plugin_object.hpp"

namespace tessera {

class TESSERA_API MemoryModel : public PluginObject {
 public:
  ~MemoryModel() override;
  // Thread-safe, no allocation.
  virtual void evaluate(const EvalContext& ctx, const ParallelConfig& c, const Layout& layout,
                        MemoryUsage& out) const = 0;
};

}  // namespace tessera
