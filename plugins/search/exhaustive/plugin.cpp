// Entry of search/exhaustive.
#include "exhaustive.hpp"

namespace {

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::search,
    .name = "exhaustive",
    .version = "1.0.0",
    .summary = "every valid canonical configuration of the sweep grid (the default)",
    .create = &tessera::create_default<tessera::plugins::ExhaustiveSearch>,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
