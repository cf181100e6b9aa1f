// Entry of objective/pes.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "pes",
    .version = "1.0.0",
    .summary = "PEs used (cp*tp*pp*dp); minimised",
    .create = &tessera::create_default<tessera::plugins::PesObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
