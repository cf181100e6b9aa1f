// Entry of objective/ttft.
#include "objective.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::objective,
    .name = "ttft",
    .version = "1.0.0",
    .summary = "time to first token (serving: mean TTFT; prefill: step latency), s; minimised",
    .create = &tessera::create_default<tessera::plugins::TtftObjective>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
