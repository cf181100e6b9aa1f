#pragma once
// latency/example: a roofline whose HBM bandwidth is derated by `hbm_efficiency` and whose
// collectives pay an extra software latency `alpha` per message.
#include <tessera/sdk.hpp>

namespace example {

class ExampleLatency final : public tessera::LatencyModel {
 public:
  ExampleLatency(double hbm_efficiency, double alpha) : hbm_efficiency_(hbm_efficiency), alpha_(alpha) {}

  // Called from many threads at once for millions of configurations: const, no allocation.
  void time_step(const tessera::EvalContext& ctx, const tessera::StepCall& step,
                 tessera::StageList& out) const override;

 private:
  double hbm_efficiency_;  // fraction of the HBM bandwidth achieved, (0, 1]
  double alpha_;           // s added to every collective message
};

}  // namespace example
