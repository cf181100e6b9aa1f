#pragma once
#include "tessera/sdk.hpp"

namespace tessera::plugins {

// USD per million output tokens; lower is better (tessera/price.hpp, docs/physics.md §9 "Price"):
//   1e6 · ( capital·PEs / (lifetime·utilisation·R) + electricity per token )
// with R the output tokens/s of all replicas, capital the machine's price.pe or the parametric
// estimate of the plugin's coefficients (the `cost` objective's), electricity from price.power
// or, without it, the energy block's energy per token (energy_per_token's, prefill included in a
// serving study).
//   serving study: R = dp · the serving plugin's tokens/s per replica
//   decode study:  R = the step's throughput (pipeline-full when reported, as objective/throughput)
//   prefill study: refused (InputError): no output tokens to price.
// Neither price.power nor an energy block: InputError naming the machine.
class CostPerMtokObjective final : public Objective {
 public:
  explicit CostPerMtokObjective(ParametricPeCost k) : k_(k) {}
  Direction direction() const override { return Direction::minimize; }
  const char* unit() const override { return "USD/Mtok"; }
  double evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                  const EvaluatedStep& step) const override {
    double rate = 0;
    if (step.serving) {
      rate = static_cast<double>(c.dp) * step.serving->tokens_per_s;
    } else {
      if (workload.mode != Mode::decode)
        throw InputError(
            "objective/cost_per_mtok: a prefill study produces no output tokens to price; use it with "
            "`tessera serve` or a decode scenario");
      const StepTotals& t = step.totals;
      rate = t.pipeline_throughput_tok_s > 0 ? t.pipeline_throughput_tok_s : t.throughput_tok_s;
    }
    if (rate <= 0) return 0;
    const MachineSpec& m = *ctx.machine;
    if (m.price.power <= 0 && !m.energy.present)
      throw InputError("objective/cost_per_mtok: machine '" + m.name +
                       "' has neither `price.power` nor an `energy:` block to price electricity; add one");
    const double joules =
        m.price.power > 0 ? 0.0 : token_energy(ctx, workload, c, step, "objective/cost_per_mtok");
    return 1e6 * usd_per_token(k_, ctx, static_cast<double>(c.pes()), rate, joules);
  }

 private:
  ParametricPeCost k_;
};

}  // namespace tessera::plugins
