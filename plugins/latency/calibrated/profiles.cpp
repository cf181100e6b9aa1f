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
  // BEGIN FITTED PROFILES (written by tests/calibration/apply_fit.py from fit_calibrated)
  static const std::vector<FrameworkProfile> kProfiles = {
      {"generic", "an unstated framework: one profile fitted to every measured framework together", 22.65 * us, 4.202 * us, 9840 * us, 6979 * us},
      {"none", "no framework: kernels timed on the GPU alone (CUDA events), no host cost", 0 * us, 0 * us, 0 * us, 0 * us},
      {"tensorrt-llm", "NVIDIA TensorRT-LLM (all versions)", 5.041 * us, 53.79 * us, 198.9 * us, 3386 * us},
      {"fastertransformer", "NVIDIA FasterTransformer (all versions, Triton backend included)", 4.913 * us, 2.982 * us, 147.3 * us, 1.034e+05 * us},
      {"lmdeploy", "InternLM lmdeploy / TurboMind (all versions)", 4.41 * us, 1.407 * us, 50.5 * us, 6826 * us},
      {"vllm", "vLLM (no measurement yet: the generic numbers)", 22.65 * us, 4.202 * us, 9840 * us, 6979 * us},
      {"deepspeed", "DeepSpeed-Inference (no latency measurement yet: the generic numbers)", 22.65 * us, 4.202 * us, 9840 * us, 6979 * us},
      {"pytorch-eager", "plain PyTorch, eager (one host launch per kernel)", 23.12 * us, 10 * us, 1.007e+04 * us, 1.066e+04 * us},
      {"pytorch-cudagraph", "plain PyTorch with the step captured in a CUDA graph", 5.053 * us, 10.06 * us, 771.5 * us, 200.9 * us},
      {"transformers", "Hugging Face transformers generate(), eager", 196.8 * us, 10.03 * us, 201.5 * us, 199.4 * us},
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
