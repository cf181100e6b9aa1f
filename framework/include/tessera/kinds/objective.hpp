#pragma once
// Kind `objective`: one scalar per evaluated configuration, and its direction.
#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/step_result.hpp"
#include "tessera/plugin/plugin_object.hpp"
#include "tessera/workload.hpp"

namespace tessera {

enum class Direction : std::uint8_t { minimize, maximize };

class TESSERA_API Objective : public PluginObject {
 public:
  ~Objective() override;
  virtual Direction direction() const = 0;
  // SI unit of the value for JSON/CSV column names ("s", "tok/s", "USD", "J/tok", "" if none).
  virtual const char* unit() const = 0;
  // The value of configuration `c`, from its evaluated step (stages, totals, memory). Called
  // for valid configurations, after the memory model and the step's accounting. `workload`: the
  // scenario's (mode decode, prefill, or serve with step.serving set).
  // Thread-safe, no allocation.
  virtual double evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                          const EvaluatedStep& step) const = 0;
};

}  // namespace tessera
