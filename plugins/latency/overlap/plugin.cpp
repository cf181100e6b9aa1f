// Entry of latency/overlap: the tensor-parallel overlap parameters (docs/physics.md §7).
#include "overlap.hpp"

namespace {

using tessera::Dimension;
using tessera::ParamChoice;
using tessera::ParamSpec;
using tessera::ParamType;

const ParamChoice kTpOverlap[] = {
    {"none",
     "every TP all-reduce follows its GEMM, fully exposed (default: no serving stack overlaps by default)"},
    {"chunked",
     "the GEMM before a TP all-reduce runs in token chunks, all-reduce(i) pipelined with GEMM(i+1)"},
};

const ParamSpec kParams[] = {
    {"tp_overlap", ParamType::enumeration, Dimension::none, "none", tessera::kNoMin, tessera::kNoMax,
     kTpOverlap, 2,
     "overlap of the TP all-reduces (attn.tp_reduce, ffn.reduce, moe.combine) with their GEMM"},
    {"tp_overlap_chunks", ParamType::integer, Dimension::none, "4", 2, 64, nullptr, 0,
     "token chunks n of a chunked GEMM + all-reduce (NeMo userbuffers presets: num_splits 4)"},
    {"tp_overlap_min_chunk_tokens", ParamType::real, Dimension::none, "128", 1, 1e9, nullptr, 0,
     "fewest GEMM rows per chunk for chunking (also never below the weight re-read ridge w*peak/(2*hbm_bw))"},
};

tessera::PluginObject* create(const tessera::ParamSet& params) {
  return new tessera::plugins::OverlapLatency(tessera::tp_overlap_policy(params));
}

const tessera::PluginDescriptor kDescriptor{
    TESSERA_DESCRIPTOR_HEADER(tessera::PluginKind::latency, tessera::kLatencyInterfaceVersion),
    "overlap",
    "1.1.0",
    "reference model (default): peak rates, alpha-beta collectives, CP exchange overlapped with attention, "
    "optional chunked TP all-reduce overlap",
    tessera::kFrameworkVersion,
    kParams,
    static_cast<std::uint32_t>(sizeof(kParams) / sizeof(kParams[0])),
    nullptr,
    0,
    &create,
};

}  // namespace

TESSERA_PLUGIN(kDescriptor)
