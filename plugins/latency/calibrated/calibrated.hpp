#pragma once
// latency/calibrated: the overlap model with achievable rates instead of peak ones.
//
// Per machine family (the machine file's `efficiency:` block, schema in plugin.cpp):
//   GEMM efficiency as a function of the token dimension M,
//     eff(M) = gemm_efficiency * M / (M + gemm_m_half)   (x gemm_8bit_efficiency for GEMMs in
//     formats of 8 bits or fewer, FP4 included: README.md "Number formats")
//   the achievable fraction of HBM bandwidth, the attention kernels' fraction of peak, the
//   collectives' bus-bandwidth efficiency and extra latency per ring step, and a GPU-side fixed
//   cost per kernel (StageWork::kernels).
// Per serving framework (the plugin parameter `framework`, profiles.cpp): the host's launch
//   cost per kernel (hidden behind GPU work unless the host is the bottleneck), a software cost
//   per collective call, and the per-step costs of a decode step and of a prefill.
// The framework's step costs appear as one extra stage, `step.overhead` (block head, count 1),
// appended after the work stages. README.md and docs/accuracy.md explain every parameter.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

// One machine family's achievable efficiencies (SI: overheads in seconds).
struct FamilyEfficiency {
  double gemm_efficiency = 0.80;           // large GEMMs: fraction of the dense peak
  double gemm_m_half = 32;                 // tokens (GEMM rows M) at which GEMM efficiency halves
  double gemm_8bit_efficiency = 0.75;      // multiplies the efficiencies of kernels in <= 8-bit formats
  double hbm_efficiency = 0.85;            // achievable fraction of HBM bandwidth
  double attention_efficiency = 0.50;      // attention kernels: fraction of the peak
  double kernel_overhead = 4e-6;           // s per kernel, GPU side (launch latency, ramp, tail)
  double collective_bw_efficiency = 0.70;  // achieved fraction of link bandwidth
  double collective_latency = 5e-6;        // s added to every collective step (software, sync)
};

// One serving framework's overheads (seconds). All versions of a framework share one profile.
struct FrameworkProfile {
  const char* name = "generic";
  const char* meaning = "";
  double launch_overhead = 0;       // host time per kernel launch; exposed when the host is the bottleneck
  double collective_overhead = 0;   // per collective call (implementation, synchronisation)
  double decode_step_overhead = 0;  // per decode step (scheduling, sampling, host sync)
  double prefill_overhead = 0;      // per prefill (request admission, scheduling, first sampling)
};

// The machine family's efficiencies from a validated `efficiency:` block; a missing key (a
// machine built in code with no block) takes the schema default.
FamilyEfficiency family_from_params(const ParamSet& p);

// The shipped profiles (profiles.cpp); `generic` first.
const std::vector<FrameworkProfile>& framework_profiles();
// The profile named `name`, or nullptr.
const FrameworkProfile* find_framework_profile(std::string_view name);

class CalibratedLatency final : public LatencyModel {
 public:
  explicit CalibratedLatency(const FrameworkProfile& profile) : profile_(profile) {}
  void time_step(const EvalContext& ctx, const StepWork& work, StageList& out) const override;
  const FrameworkProfile& profile() const { return profile_; }

  // The same with explicit family efficiencies instead of the machine's block (fitting, tests).
  void time_step_with(const EvalContext& ctx, const FamilyEfficiency& fam, const StepWork& work,
                      StageList& out) const;

 private:
  FrameworkProfile profile_;
};

}  // namespace tessera::plugins
