// Entry of latency/overlap: the tensor-parallel overlap parameters (docs/physics.md §7).
#include "overlap.hpp"

namespace {

const tessera::ParamSpec kParams[] = {
    tessera::kTpOverlapParam,
    tessera::kTpOverlapChunksParam,
    tessera::kTpOverlapMinChunkTokensParam,
};

tessera::PluginObject* create(const tessera::ParamSet& params) {
  return new tessera::plugins::OverlapLatency(tessera::tp_overlap_policy(params));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::latency,
    .name = "overlap",
    .version = "1.1.0",
    .summary = "reference model (default): peak rates, alpha-beta collectives, CP exchange overlapped with "
               "attention, "
               "optional chunked TP all-reduce overlap",
    .params = kParams,
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
