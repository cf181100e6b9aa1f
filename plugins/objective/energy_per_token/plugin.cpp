// Entry of objective/energy_per_token.
#include "objective.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet& p) {
  (void)p;
  return new tessera::plugins::EnergyPerTokenObjective();
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::objective, tessera::kObjectiveInterfaceVersion),
    "energy_per_token",
    "1.0.0",
    "energy per token from the machine's energy block, J/tok; minimised",
    tessera::kFrameworkVersion,
    nullptr,
    0,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
