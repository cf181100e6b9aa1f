// Entry of objective/latency.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "latency",
    .version = "1.0.0",
    .summary = "step latency (decode) or time to first token (prefill), s; minimised",
    .create = &tessera::create_default<tessera::plugins::LatencyObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
