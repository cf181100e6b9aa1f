// Entry of objective/efficiency.
#include "objective.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet& p) {
  (void)p;
  return new tessera::plugins::EfficiencyObjective();
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::objective, tessera::kObjectiveInterfaceVersion),
    "efficiency",
    "1.0.0",
    "sqrt(compute_util * bw_util), unit-less; maximised",
    tessera::kFrameworkVersion,
    nullptr,
    0,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
