#pragma once
// The price model (docs/physics.md §9 "Price"): the capital cost of a PE, from the machine's
// `price.pe` or, without it, the parametric estimate of the `cost` objective's coefficients; the
// cost per output token from capital, lifetime, utilisation and electricity. Read by the `cost`
// and `cost_per_mtok` objectives, which declare the coefficients as the same parameters.
#include <iterator>
#include <string>

#include "tessera/error.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/step_result.hpp"
#include "tessera/physics/token_energy.hpp"
#include "tessera/plugin/param_set.hpp"
#include "tessera/plugin/param_spec.hpp"

namespace tessera {

// The parametric price of one PE, USD: base + per_tflops·peak + per_tbps·HBM bandwidth +
// per_gb·HBM capacity + per_gbps·first-level link bandwidth (docs/specification.md §5).
struct ParametricPeCost {
  double base = 2000;      // USD per PE
  double per_tflops = 8;   // USD per dense TFLOP/s of the GEMM format
  double per_tbps = 2500;  // USD per TB/s of HBM bandwidth
  double per_gb = 40;      // USD per GB of HBM capacity
  double per_gbps = 10;    // USD per GB/s of first-level link bandwidth
};

// The coefficients as plugin parameters (the same defaults), for the objectives that price PEs.
inline constexpr ParamSpec kParametricPeCostParams[] = {
    {"base", ParamType::real, Dimension::none, "2000", 0, kNoMax, nullptr, 0,
     "USD per PE, fixed part (package, board, cooling share); used without machine.price.pe"},
    {"per_tflops", ParamType::real, Dimension::none, "8", 0, kNoMax, nullptr, 0,
     "USD per TFLOP/s of dense peak in the GEMM format; used without machine.price.pe"},
    {"per_tbps", ParamType::real, Dimension::none, "2500", 0, kNoMax, nullptr, 0,
     "USD per TB/s of HBM bandwidth; used without machine.price.pe"},
    {"per_gb", ParamType::real, Dimension::none, "40", 0, kNoMax, nullptr, 0,
     "USD per GB of HBM capacity; used without machine.price.pe"},
    {"per_gbps", ParamType::real, Dimension::none, "10", 0, kNoMax, nullptr, 0,
     "USD per GB/s of first-level link (injection) bandwidth; used without machine.price.pe"},
};
inline constexpr std::size_t kParametricPeCostParamCount = std::size(kParametricPeCostParams);

inline ParametricPeCost read_parametric_pe_cost(const ParamSet& p) {
  ParametricPeCost k;
  k.base = p.real("base");
  k.per_tflops = p.real("per_tflops");
  k.per_tbps = p.real("per_tbps");
  k.per_gb = p.real("per_gb");
  k.per_gbps = p.real("per_gbps");
  return k;
}

// The parametric estimate on the effective machine (a sweep.hardware axis moves it).
inline double parametric_pe_cost(const ParametricPeCost& k, const EvalContext& ctx) {
  const MachineSpec& m = *ctx.machine;
  const double link = m.levels.empty() ? 0.0 : m.levels.front().link_bw;
  return k.base + k.per_tflops * ctx.gemm_peak / 1e12 + k.per_tbps * m.pe.hbm_bandwidth / 1e12 +
         k.per_gb * m.pe.hbm_capacity / 1e9 + k.per_gbps * link / 1e9;
}

// Capital cost of one PE, USD: machine.price.pe when given, else the parametric estimate.
inline double capital_per_pe(const ParametricPeCost& k, const EvalContext& ctx) {
  const double pe = ctx.machine->price.pe;
  return pe > 0 ? pe : parametric_pe_cost(k, ctx);
}

inline constexpr double kSecondsPerYear = 365.25 * 86400;  // Julian year
inline constexpr double kJoulesPerKwh = 3.6e6;

// USD per output token at `rate` output tokens/s (all replicas) of a configuration of `pes` PEs:
//   capital·PEs / (lifetime·utilisation·rate)        depreciation over the hours served
//   + power·PEs / rate · electricity / 3.6e6           with machine.price.power
//   + energy per token · electricity / 3.6e6           without it (the `energy:` block, token_energy)
// `energy_j_per_token` is used only without price.power (pass it then: token_energy(...)).
inline double usd_per_token(const ParametricPeCost& k, const EvalContext& ctx, double pes, double rate,
                            double energy_j_per_token) {
  const PriceSpec& p = ctx.machine->price;
  const double capital =
      capital_per_pe(k, ctx) * pes / (p.lifetime_years * kSecondsPerYear * p.utilization * rate);
  const double joules = p.power > 0 ? p.power * pes / rate : energy_j_per_token;
  return capital + joules * p.electricity_per_kwh / kJoulesPerKwh;
}

}  // namespace tessera
