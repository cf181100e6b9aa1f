// Entry of objective/cost_per_mtok.
#include "objective.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet& p) {
  return new tessera::plugins::CostPerMtokObjective(tessera::read_parametric_pe_cost(p));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "cost_per_mtok",
    .version = "1.0.0",
    .summary =
        "USD per million output tokens: capital over lifetime and utilisation + electricity; minimised",
    .params = tessera::kParametricPeCostParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
