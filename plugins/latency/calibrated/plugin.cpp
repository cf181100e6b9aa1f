// Entry of latency/calibrated: the scenario parameter `framework` and the schema of the
// machine file's `efficiency:` block, with the documented defaults (docs/accuracy.md).
#include "calibrated.hpp"

namespace {

using tessera::Dimension;
using tessera::ParamChoice;
using tessera::ParamSpec;
using tessera::ParamType;

// Keep in step with profiles.cpp (a test checks that every choice has a profile).
const ParamChoice kServingStacks[] = {
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
     kServingStacks, std::size(kServingStacks),
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
    // A profile fitted by `tessera calibrate` (docs/accuracy.md "Your own measurements"): the names
    // listed in profile_overrides take the values below instead of the framework profile's; the
    // ranges are the documented physical ranges (profiles.cpp profile_ranges()).
    {"profile_overrides", ParamType::string, Dimension::none, "", tessera::kNoMin, tessera::kNoMax, nullptr,
     0,
     "comma-separated profile values taken from the parameters below instead of the framework profile "
     "(\"launch_overhead,prefill_overhead\"; tessera calibrate prints them); empty: the profile's own"},
    {"launch_overhead", ParamType::quantity, Dimension::time, "5 us", 0.0, 50e-6, nullptr, 0,
     "host time per kernel launch (used when listed in profile_overrides)"},
    {"collective_overhead", ParamType::quantity, Dimension::time, "0 us", 0.0, 150e-6, nullptr, 0,
     "software cost per collective call beyond the time model's (used when listed in profile_overrides)"},
    {"decode_step_overhead", ParamType::quantity, Dimension::time, "80 us", 0.0, 2000e-6, nullptr, 0,
     "scheduling and host sync per decode step (used when listed in profile_overrides)"},
    {"prefill_overhead", ParamType::quantity, Dimension::time, "4000 us", 0.0, 20000e-6, nullptr, 0,
     "request admission, scheduling, first sampling per prefill (used when listed in profile_overrides)"},
    {"decode_seq_overhead", ParamType::quantity, Dimension::time, "2 us", 0.0, 50e-6, nullptr, 0,
     "per sequence per decode step (used when listed in profile_overrides)"},
    {"prefill_chunk_overhead", ParamType::quantity, Dimension::time, "100 us", 0.0, 2000e-6, nullptr, 0,
     "one scheduler iteration per prefill chunk (used when listed in profile_overrides)"},
};

// The profile with the values profile_overrides names taken from the parameters.
tessera::plugins::ServingStackProfile with_overrides(tessera::plugins::ServingStackProfile p,
                                                     const tessera::ParamSet& params) {
  if (!params.has("profile_overrides")) return p;
  const std::string& list = params.text("profile_overrides");
  std::size_t at = 0;
  while (at < list.size()) {
    std::size_t end = list.find(',', at);
    if (end == std::string::npos) end = list.size();
    std::string name = list.substr(at, end - at);
    at = end + 1;
    while (!name.empty() && name.front() == ' ') name.erase(name.begin());
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.empty()) continue;
    double* field = name == "launch_overhead"          ? &p.launch_overhead
                    : name == "collective_overhead"    ? &p.collective_overhead
                    : name == "decode_step_overhead"   ? &p.decode_step_overhead
                    : name == "prefill_overhead"       ? &p.prefill_overhead
                    : name == "decode_seq_overhead"    ? &p.decode_seq_overhead
                    : name == "prefill_chunk_overhead" ? &p.prefill_chunk_overhead
                                                       : nullptr;
    if (!field)
      throw tessera::PluginError("latency/calibrated: profile_overrides names '" + name +
                                 "', not a profile value (launch_overhead, collective_overhead, "
                                 "decode_step_overhead, prefill_overhead, decode_seq_overhead, "
                                 "prefill_chunk_overhead)");
    *field = params.real(name);
  }
  return p;
}

tessera::PluginObject* create(const tessera::ParamSet& params) {
  const std::string& name = params.text("framework");
  const std::string version = params.has("framework_version") ? params.text("framework_version") : "";
  const tessera::plugins::ProfileChoice c = tessera::plugins::select_serving_stack_profile(name, version);
  if (!c.profile)
    throw tessera::PluginError("latency/calibrated: no overhead profile for framework '" + name +
                               (version.empty() ? "" : "@" + version) + "'");
  return new tessera::plugins::CalibratedLatency(
      with_overrides(*c.profile, params), tessera::tp_overlap_policy(params),
      params.has("allreduce_norm_fusion") && params.boolean("allreduce_norm_fusion"));
}

// What `tessera calibrate` fits, with the documented physical ranges (docs/accuracy.md "The
// calibrated model"). Machine block: a family's efficiencies and per-kernel cost. Profile: the
// four values the 2023 rows constrain; the per-sequence and per-chunk costs stay a-priori (no
// public row runs continuous batching or chunked prefill with a stated cost), so they are not here.
constexpr double us = 1e-6;
using tessera::FitOwner;
using tessera::FitScale;
const tessera::FitSpec kFit[] = {
    {"gemm_efficiency", FitOwner::machine_block, FitScale::logit, 0.4, 0.95, 0, false},
    {"gemm_m_half", FitOwner::machine_block, FitScale::log, 1, 512, 0, false},
    {"gemm_8bit_efficiency", FitOwner::machine_block, FitScale::logit, 0.4, 1.0, 0, true},
    {"hbm_efficiency", FitOwner::machine_block, FitScale::logit, 0.6, 0.95, 0, false},
    {"attention_efficiency", FitOwner::machine_block, FitScale::logit, 0.2, 0.9, 0, false},
    {"kernel_overhead", FitOwner::machine_block, FitScale::log_us, 1 * us, 10 * us, 0, false},
    {"launch_overhead", FitOwner::scenario, FitScale::log_us, 0, 50 * us, 5 * us, false},
    {"collective_overhead", FitOwner::scenario, FitScale::log_us, 0, 150 * us, 10 * us, false},
    {"decode_step_overhead", FitOwner::scenario, FitScale::log_us, 0, 2000 * us, 200 * us, false},
    {"prefill_overhead", FitOwner::scenario, FitScale::log_us, 0, 20000 * us, 200 * us, false},
};

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
    // Its machine block may also be the machine file's older `efficiency:` block; its predictions
    // carry an error band, scored held out by `tessera calibrate --bands`; kFit is what it fits.
    .machine_block_key = "efficiency",
    .roles = tessera::kRoleErrorBand | tessera::kRoleBandScored,
    .fit = kFit,
});

}  // namespace

TESSERA_PLUGIN(kDescriptor)
