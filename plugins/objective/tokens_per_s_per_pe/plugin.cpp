// Entry of objective/tokens_per_s_per_pe.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "tokens_per_s_per_pe",
    .version = "1.0.0",
    .summary =
        "output tokens/s per PE, all replicas (serving: dp x replica tokens/s / PEs), tok/s; maximised",
    .create = &tessera::create_default<tessera::plugins::TokensPerSPerPeObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
