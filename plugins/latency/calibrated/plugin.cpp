// Entry of latency/calibrated: the scenario parameter `framework` and the schema of the
// machine file's `efficiency:` block, with the documented defaults (docs/accuracy.md).
#include "calibrated.hpp"

namespace {

using tessera::Dimension;
using tessera::ParamChoice;
using tessera::ParamSpec;
using tessera::ParamType;

// Keep in step with profiles.cpp (a test checks that every choice has a profile).
const ParamChoice kFrameworks[] = {
    {"modern-stack", "unstated framework: a 2024-2026 stack (CUDA-graph decode, graph-captured all-reduce)"},
    {"generic", "an unstated 2023 serving stack: one profile fitted to all measured 2023 stacks together"},
    {"none", "kernels timed on the GPU alone: no launch, collective-call or step cost"},
    {"tensorrt-llm", "NVIDIA TensorRT-LLM (>=1.0: PyTorch backend; <1.0: TensorRT engines)"},
    {"sglang", "SGLang"},
    {"nim", "NVIDIA NIM"},
    {"fastertransformer", "NVIDIA FasterTransformer"},
    {"lmdeploy", "InternLM lmdeploy (TurboMind)"},
    {"vllm", "vLLM (>=0.6; <0.6: the 2023 pooled numbers)"},
    {"deepspeed", "DeepSpeed-Inference (generic numbers until measured)"},
    {"pytorch-eager", "plain PyTorch, eager"},
    {"pytorch-cudagraph", "plain PyTorch, step captured in a CUDA graph"},
    {"transformers", "Hugging Face transformers, eager"},
};

const ParamSpec kParams[] = {
    {"framework", ParamType::enumeration, Dimension::none, "modern-stack", tessera::kNoMin, tessera::kNoMax,
     kFrameworks, std::size(kFrameworks),
     "serving framework whose overhead profile applies (kernel launch, collective calls, per-step costs); "
     "the scenario's `framework:` sets it, and a different value here is an error"},
    {"framework_version", ParamType::string, Dimension::none, "", tessera::kNoMin, tessera::kNoMax, nullptr,
     0,
     "the framework's version (\"0.6.3\"): picks the profile whose version range holds it; empty or "
     "\"main\": the newest"},
    tessera::kTpOverlapParam,
    tessera::kTpOverlapChunksParam,
    tessera::kTpOverlapMinChunkTokensParam,
    {"allreduce_norm_fusion", ParamType::boolean, Dimension::none, "false", tessera::kNoMin, tessera::kNoMax,
     nullptr, 0,
     "fuse each TP all-reduce (up to 16384 tokens) with the residual add and RMSNorm after it: one kernel "
     "less, no communication hidden"},
};

tessera::PluginObject* create(const tessera::ParamSet& params) {
  const std::string& name = params.text("framework");
  const std::string version = params.has("framework_version") ? params.text("framework_version") : "";
  const tessera::plugins::ProfileChoice c = tessera::plugins::select_framework_profile(name, version);
  if (!c.profile)
    throw tessera::PluginError("latency/calibrated: no overhead profile for framework '" + name +
                               (version.empty() ? "" : "@" + version) + "'");
  return new tessera::plugins::CalibratedLatency(
      *c.profile, tessera::tp_overlap_policy(params),
      params.has("allreduce_norm_fusion") && params.boolean("allreduce_norm_fusion"));
}

const tessera::PluginDescriptor kDescriptor = tessera::make_descriptor({
    .kind = tessera::PluginKind::latency,
    .name = "calibrated",
    .version = "1.2.0",
    .summary = "overlap with achievable rates: shape-dependent GEMM efficiency, HBM/attention/collective "
               "efficiencies, "
               "kernel and per-step overheads per machine family and serving framework",
    .params = kParams,
    .machine_params = tessera::plugins::calibrated_machine_params(),
    .create = &create,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
