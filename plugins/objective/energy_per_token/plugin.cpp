// Entry of objective/energy_per_token.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "energy_per_token",
    .version = "1.1.0",
    .summary = "energy per token (serving: per output token of a whole request) from the energy block, "
               "J/tok; minimised",
    .create = &tessera::create_default<tessera::plugins::EnergyPerTokenObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
