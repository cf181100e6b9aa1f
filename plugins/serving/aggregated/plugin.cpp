// Entry of serving/aggregated: the parameter `mixing`.
#include <string>

#include "serving_model.hpp"

namespace {

const tessera::ParamChoice kMixings[] = {
    {"mixed", "a prefill chunk rides beside the decode tokens in one iteration (vLLM, TensorRT-LLM)"},
    {"alternating", "prefill-only iterations of the budget's tokens stall decode (SGLang's default)"},
};

const tessera::ParamSpec kParams[] = {
    {"mixing", tessera::ParamType::enumeration, tessera::Dimension::none, "mixed", tessera::kNoMin,
     tessera::kNoMax, kMixings, std::size(kMixings),
     "how prefill shares the replica with decode: mixed iterations, or prefill-only ones between decode "
     "iterations"},
};

tessera::PluginObject* create(const tessera::ParamSet& p) {
  const bool alternating = p.text("mixing") == "alternating";
  return new tessera::plugins::AggregatedServing(alternating ? tessera::plugins::Mixing::alternating
                                                             : tessera::plugins::Mixing::mixed);
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::serving,
    .name = "aggregated",
    .version = "1.0.0",
    .summary = "steady-state continuous batching with chunked prefill (mixed or alternating iterations)",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
