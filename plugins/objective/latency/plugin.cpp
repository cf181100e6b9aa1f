// Entry of objective/latency.
#include "objective.hpp"

namespace {

tessera::PluginObject* create(const tessera::ParamSet& p) {
  (void)p;
  return new tessera::plugins::LatencyObjective();
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::objective, tessera::kObjectiveInterfaceVersion),
    "latency",
    "1.0.0",
    "step latency (decode) or time to first token (prefill), s; minimised",
    tessera::kFrameworkVersion,
    nullptr,
    0,
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
