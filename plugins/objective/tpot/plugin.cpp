// Entry of objective/tpot.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "tpot",
    .version = "1.0.0",
    .summary = "time per output token (serving: mean TPOT; decode: step latency), s; minimised",
    .create = &tessera::create_default<tessera::plugins::TpotObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
