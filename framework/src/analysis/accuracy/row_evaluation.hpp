#pragma once
// A serving row's configuration evaluated as the row states it (analysis/accuracy/serving_rows.cpp,
// analysis/accuracy/simulated_rows.cpp): one setup for the serving model's prediction and the request
// simulation's.
#include <cstdint>
#include <memory>

#include "analysis/accuracy/row_plan.hpp"
#include "analysis/accuracy/row_prediction.hpp"
#include "eval/evaluator.hpp"
#include "eval/host_step_timer.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/latency_model.hpp"
#include "tessera/kinds/memory_model.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/plugin/param_set.hpp"

namespace tessera::accuracy {

// A serving row's configuration as the row states it: its workload (serve, ISL, OSL at least 1,
// B = plan.batch), its machine with `efficiency`, the evaluator, the configuration's layout and
// its step timer.
// Throws Error naming why when the layout is not valid. Shared by the serving model's prediction
// and the request simulation's (simulated_rows.hpp); fixed in place (the evaluator refers to it).
class TESSERA_API RowEvaluation {
 public:
  RowEvaluation(const PreparedRow& row, const std::shared_ptr<const LatencyModel>& latency,
                const ParamSet& efficiency, const std::shared_ptr<const MemoryModel>& memory);
  RowEvaluation(const RowEvaluation&) = delete;
  RowEvaluation& operator=(const RowEvaluation&) = delete;
  const Evaluator& evaluator() const { return ev_; }
  const Layout& layout() const { return step_.layout; }
  std::int64_t output() const { return workload_.output; }
  // The step timer of the row's configuration (the serving model's and the simulator's).
  HostStepTimer& timer() { return timer_; }

 private:
  Workload workload_;
  MachineSpec machine_;
  EvalContext ctx_;
  Evaluator ev_;
  Evaluation step_;
  Evaluation scratch_;
  HostStepTimer timer_;
};

}  // namespace tessera::accuracy
