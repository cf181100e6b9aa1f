// Entry of objective/efficiency.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "efficiency",
    .version = "1.0.0",
    .summary = "sqrt(compute_util * bw_util), unit-less; maximised",
    .create = &tessera::create_default<tessera::plugins::EfficiencyObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
