// Entry of serving/static.
#include "serving_model.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::serving,
    .name = "static",
    .version = "1.0.0",
    .summary = "a fixed batch of B equal requests, started together: run's single-step semantics",
    .create = &tessera::create_default<tessera::plugins::StaticServing>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
