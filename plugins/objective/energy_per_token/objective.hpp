#pragma once
#include <string>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Energy per token, J/tok; lower is better:
//   (flops_all_pes·E_flop + hbm_bytes_all_pes·E_hbm_byte + link_bytes_all_pes·E_link_byte
//    + P_static·latency·PEs) / tokens
// from the machine's `energy:` block. A machine without that block cannot be scored: the
// first evaluation throws tessera::InputError naming the machine (the plugin is created
// before any machine is known, so it cannot refuse earlier).
class EnergyPerTokenObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "J/tok"; }
  double evaluate(const EvalContext& ctx, const ParallelConfig&, const EvaluatedStep& step) const override {
    const StepTotals& t = step.totals;
    const EnergySpec& e = ctx.machine->energy;
    if (!e.present)
      throw InputError("objective/energy_per_token: machine '" + ctx.machine->name +
                       "' has no `energy:` block (flop, hbm_byte, link_byte); add one or drop the objective");
    if (t.tokens <= 0) return 0;
    return (t.flops_all_pes * e.flop + t.hbm_bytes_all_pes * e.hbm_byte + t.link_bytes_all_pes * e.link_byte +
            e.static_power * t.latency_s * t.pes) /
           t.tokens;
  }
};

}  // namespace tessera::plugins
