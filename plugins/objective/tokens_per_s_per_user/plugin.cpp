// Entry of objective/tokens_per_s_per_user.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "tokens_per_s_per_user",
    .version = "1.0.0",
    .summary = "output tokens/s one user sees: 1/TPOT (decode: 1/step latency), tok/s; maximised",
    .create = &tessera::create_default<tessera::plugins::TokensPerSPerUserObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
