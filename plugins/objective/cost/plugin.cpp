// Entry of objective/cost.
#include "objective.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet& p) {
  return new tessera::plugins::CostObjective(tessera::read_parametric_pe_cost(p));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "cost",
    .version = "1.1.0",
    .summary = "capital cost: PEs x machine.price.pe (or a parametric price per PE), USD; minimised",
    .params = tessera::kParametricPeCostParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
