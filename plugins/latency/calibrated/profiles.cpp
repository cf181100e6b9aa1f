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
      {"generic",
       "an unstated serving stack: one profile fitted to every measured serving framework together",
       4.756 * us, 53.02 * us, 83.17 * us, 8491 * us},
      {"none", "no framework: kernels timed on the GPU alone (CUDA events), no host cost", 0 * us, 0 * us,
       0 * us, 0 * us},
      {"tensorrt-llm", "NVIDIA TensorRT-LLM (all versions)", 5.028 * us, 106.4 * us, 200 * us, 3922 * us},
      {"fastertransformer", "NVIDIA FasterTransformer (all versions, Triton backend included)", 4.843 * us,
       1.452 * us, 103.5 * us, 1.052e+05 * us},
      {"lmdeploy", "InternLM lmdeploy / TurboMind (all versions)", 4.473 * us, 6.199 * us, 53.77 * us,
       1.057e+04 * us},
      {"vllm", "vLLM (no measurement yet: the generic numbers)", 4.756 * us, 53.02 * us, 83.17 * us,
       8491 * us},
      {"deepspeed", "DeepSpeed-Inference (no latency measurement yet: the generic numbers)", 4.756 * us,
       53.02 * us, 83.17 * us, 8491 * us},
      {"pytorch-eager", "plain PyTorch, eager (one host launch per kernel)", 24.8 * us, 10.01 * us, 9584 * us,
       1.048e+04 * us},
      {"pytorch-cudagraph", "plain PyTorch with the step captured in a CUDA graph", 5.051 * us, 10 * us,
       869.9 * us, 200.2 * us},
      {"transformers", "Hugging Face transformers generate(), eager", 196.8 * us, 10.01 * us, 203.1 * us,
       200 * us},
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
