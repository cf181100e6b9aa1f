// Entry of search/exhaustive.
#include "exhaustive.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet&) { return new tessera::plugins::ExhaustiveSearch(); }

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::search, tessera::kSearchInterfaceVersion),
    "exhaustive",
    "1.0.0",
    "every valid canonical configuration of the sweep grid (the default)",
    tessera::kFrameworkVersion,
    nullptr,
    0,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
