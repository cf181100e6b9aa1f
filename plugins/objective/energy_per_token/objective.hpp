#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// Energy per token, J/tok; lower is better (tessera/physics/token_energy.hpp, docs/physics.md §9).
// In `run`'s studies the step's: (flops_all_pes·E_flop + hbm_bytes_all_pes·E_hbm_byte +
// link_bytes_all_pes·E_link_byte + P_static·latency·PEs) / tokens. In a serving study, per output
// token of a whole request, prefill included: (E_prefill + (OSL - 1)·E_decode_token) / OSL
// + P_static·PEs / output rate. A machine without an `energy:` block cannot be scored: the
// first evaluation throws tessera::InputError naming the machine (the plugin is created before
// any machine is known, so it cannot refuse earlier).
class EnergyPerTokenObjective final : public Objective {
 public:
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "J/tok"; }
  double evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                  const EvaluatedStep& step) const override {
    return token_energy(ctx, workload, c, step, "objective/energy_per_token");
  }
};

}  // namespace tessera::plugins
