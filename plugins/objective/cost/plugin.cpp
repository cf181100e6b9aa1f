// Entry of objective/cost.
#include "objective.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    {"base", tessera::ParamType::real, tessera::Dimension::none, "2000", 0, tessera::kNoMax, nullptr, 0,
     "USD per PE, fixed part (package, board, cooling share)"},
    {"per_tflops", tessera::ParamType::real, tessera::Dimension::none, "8", 0, tessera::kNoMax, nullptr, 0,
     "USD per TFLOP/s of dense peak in the GEMM format"},
    {"per_tbps", tessera::ParamType::real, tessera::Dimension::none, "2500", 0, tessera::kNoMax, nullptr, 0,
     "USD per TB/s of HBM bandwidth"},
    {"per_gb", tessera::ParamType::real, tessera::Dimension::none, "40", 0, tessera::kNoMax, nullptr, 0,
     "USD per GB of HBM capacity"},
    {"per_gbps", tessera::ParamType::real, tessera::Dimension::none, "10", 0, tessera::kNoMax, nullptr, 0,
     "USD per GB/s of first-level link (injection) bandwidth"},
};

tessera::plugins::CostCoefficients coefficients(const tessera::ParamSet& p) {
  tessera::plugins::CostCoefficients k;
  k.base = p.real("base");
  k.per_tflops = p.real("per_tflops");
  k.per_tbps = p.real("per_tbps");
  k.per_gb = p.real("per_gb");
  k.per_gbps = p.real("per_gbps");
  return k;
}

tessera::PluginObject* create(const tessera::ParamSet& p) {
  return new tessera::plugins::CostObjective(coefficients(p));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "cost",
    .version = "1.0.0",
    .summary = "parametric hardware cost: PEs x cost per PE, USD; minimised",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
