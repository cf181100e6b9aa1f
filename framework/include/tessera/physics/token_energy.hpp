#pragma once
// Energy per token from the machine's `energy:` block (docs/physics.md §9 "Energy"), read by the
// energy_per_token and cost_per_mtok objectives.
#include <string>

#include "tessera/error.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/step_result.hpp"

namespace tessera {

// Dynamic energy of a step, J, all PEs: FLOPs, HBM bytes and link bytes at the block's rates.
inline double step_dynamic_energy(const EnergySpec& e, const StepTotals& t) {
  return t.flops_all_pes * e.flop + t.hbm_bytes_all_pes * e.hbm_byte + t.link_bytes_all_pes * e.link_byte;
}

// J per token. In `run`'s studies (step.serving null): the step's energy, static power over its
// latency included, per token it produces (decode) or processes (prefill). In a serving study
// (step.serving set), per output token of a whole request: one prompt's prefill energy
// (step.prefill, per replica) and OSL - 1 decode tokens at the decode step's energy per token
// (step.totals: the decode step at the point's mean context), over OSL, plus the static power of
// every PE over the replicas' output rate (OSL: `workload.output`). Throws InputError, naming
// `who` and the machine, when the machine has no `energy:` block.
inline double token_energy(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                           const EvaluatedStep& step, const char* who) {
  const EnergySpec& e = ctx.machine->energy;
  if (!e.present)
    throw InputError(std::string(who) + ": machine '" + ctx.machine->name +
                     "' has no `energy:` block (flop, hbm_byte, link_byte); add one or drop the objective");
  const StepTotals& t = step.totals;
  if (step.serving == nullptr) {
    if (t.tokens <= 0) return 0;
    return (step_dynamic_energy(e, t) + e.static_power * t.latency_s * t.pes) / t.tokens;
  }
  const ServingMetrics& m = *step.serving;
  const double osl = static_cast<double>(workload.output);
  const double dp = static_cast<double>(c.dp);
  const double rate = dp * m.tokens_per_s;  // output tokens/s, all replicas
  if (osl <= 0 || rate <= 0 || t.tokens <= 0 || step.prefill == nullptr) return 0;
  const double prefill_per_request = step_dynamic_energy(e, *step.prefill) / dp;
  const double decode_per_token = step_dynamic_energy(e, t) / t.tokens;
  const double dynamic = (prefill_per_request + (osl - 1) * decode_per_token) / osl;
  return dynamic + e.static_power * static_cast<double>(c.pes()) / rate;
}

}  // namespace tessera
