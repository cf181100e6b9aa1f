#pragma once
// latency/calibrated: the overlap model with achievable rates instead of peak ones.
//
// Per machine family (the machine file's `efficiency:` block, schema in plugin.cpp):
//   GEMM efficiency as a function of the token dimension M,
//     eff(M) = gemm_efficiency * M / (M + gemm_m_half)   (x gemm_8bit_efficiency for GEMMs in
//     formats of 8 bits or fewer, FP4 included: README.md "Number formats")
//   the achievable fraction of HBM bandwidth, the attention kernels' fraction of peak, and a
//   GPU-side fixed cost per kernel (StageWork::kernels). Collectives run at the machine's
//   `collectives:` rates (link_efficiency and the algorithms' per-step latencies, docs/physics.md
//   §5): no second derate here.
// Per serving framework version (the scenario's `framework: NAME[@VERSION]`, or the plugin
//   parameters `framework` / `framework_version`; profiles.cpp): the host's launch cost per
//   kernel (hidden behind GPU work unless the host is the bottleneck), a software cost per
//   collective call (0 where the all-reduce is graph-captured), the per-step costs of a decode
//   step, per decode sequence, per prefill chunk and per prefill.
// Shape-dependent costs (a-priori): decode attention's efficiency of (B·S·h_kv, GQA ratio, KV
//   page) and the framework's layer recipe (kernels per stage kind), below and docs/physics.md
//   §7.5-§7.6.
// The framework's step costs appear as one extra stage, `step.overhead` (block head, count 1),
// appended after the work stages. Optional (default off): the TP all-reduces pipelined with their
// GEMM (`tp_overlap: chunked`, tessera/physics/tp_overlap.hpp; each chunk costs one more
// kernel_overhead and GEMM chunks run at eff(M/n)), and all-reduce + RMSNorm fusion
// (`allreduce_norm_fusion`: one kernel less per fused reduction). README.md and
// docs/accuracy.md explain every parameter.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tessera/sdk.hpp"

namespace tessera::plugins {

// One machine family's achievable efficiencies (SI: overheads in seconds).
struct FamilyEfficiency {
  double gemm_efficiency = 0.80;       // large GEMMs: fraction of the dense peak
  double gemm_m_half = 32;             // tokens (GEMM rows M) at which GEMM efficiency halves
  double gemm_8bit_efficiency = 0.75;  // multiplies the efficiencies of kernels in <= 8-bit formats
  double hbm_efficiency = 0.85;        // achievable fraction of HBM bandwidth
  double attention_efficiency = 0.50;  // attention kernels: fraction of the peak
  double kernel_overhead = 4e-6;       // s per kernel, GPU side (launch latency, ramp, tail)
};

// The documented physical range of one profile quantity (SI), docs/accuracy.md "Profiles".
struct ProfileRange {
  const char* name;
  double lo, hi;
  const char* why;
};
// The ranges of launch, collective call, decode step, decode sequence, prefill, prefill chunk.
const std::vector<ProfileRange>& profile_ranges();

// Kernels per stage of one layer for a serving framework (layer_recipe.cpp, docs/physics.md
// §7.6): dense/GQA stages, MoE stages, and the MLA variants of the attention stages. A stage the
// recipe does not name (lm_head, attn.cp, collectives) keeps the work model's count.
struct LayerRecipe {
  const char* name;
  int qkv, core, out, up, down;  // attn.qkv, attn.core, attn.out, ffn.up, ffn.down
  int router, experts, shared;   // moe.router, moe.experts, moe.shared
  int mla_qkv, mla_core, mla_out;
};
const LayerRecipe* vllm_layer_recipe();          // vLLM >= 0.6, SGLang
const LayerRecipe* tensorrt_llm_layer_recipe();  // TensorRT-LLM (0.x and 1.x), NIM
// The kernels stage `w` launches under recipe `r` (nullptr: the work model's StageWork::kernels).
int recipe_kernels(const LayerRecipe* r, const StageWork& w, bool mla);

// Decode-attention efficiency (decode_attention.cpp, docs/physics.md §7.5): factors on the
// achievable HBM rate and on the attention compute rate of a decode step's attn.core.
//   occupancy(W) = min(1, W / (n_SM · kv_tile)): W = B·S·h_kv KV token-heads the PE reads; one
//     thread block streams one kv_tile of one KV head, and fewer tiles than one wave leave SMs
//     idle. n_SM = 132 (H100 SXM), kv_tile = 176 tokens (FlashAttention-3's decode KV block for
//     head dim 128, hopper/tile_size.h) — a-priori, the same for every machine (no SM count in
//     the machine file).
//   page(P) = P / (P + 3.7): the paged kernel's block-table indirection; vLLM's PagedAttention at
//     its default block of 16 tokens runs 20-26 % slower than FasterTransformer's contiguous
//     kernel (Kwon et al., SOSP 2023, arXiv 2309.06180 §7.1): 16/(16+P_half) = 1/1.23 ->
//     P_half = 3.7 tokens. P = 0: a contiguous cache, factor 1.
//   mma_fill(g) = min(1, g / 16): the g query heads sharing a KV head fill the 16 rows (M) of the
//     tensor-core MMA tile (PTX mma.m16n8k16) of the packed-GQA decode kernels.
constexpr double kDecodeWaveTokenHeads = 132.0 * 176.0;
constexpr double kDecodePageHalfTokens = 3.7;
constexpr double kMmaRows = 16;
struct DecodeAttentionEfficiency {
  double bandwidth = 1;  // multiplies hbm_bw * hbm_efficiency
  double compute = 1;    // multiplies attn_peak * attention_efficiency
};
double decode_attention_occupancy(double kv_token_heads);
double decode_attention_page_factor(double page_tokens);
double decode_attention_mma_fill(double gqa_ratio);
DecodeAttentionEfficiency decode_attention_efficiency(double kv_token_heads, double gqa_ratio,
                                                      double page_tokens);

// One serving framework version range's overheads (seconds).
struct ServingStackProfile {
  const char* name = "generic";  // the framework (`framework:` name, plugin parameter choice)
  const char* versions = "";     // version range: "" every version, ">=1.0", "<1.0"
  const char* meaning = "";
  double launch_overhead = 0;       // host time per kernel launch; exposed when the host is the bottleneck
  double collective_overhead = 0;   // per collective call (implementation, synchronisation)
  double decode_step_overhead = 0;  // per decode step (scheduling, host sync)
  double prefill_overhead = 0;      // per prefill (request admission, scheduling, first sampling)
  double decode_seq_overhead = 0;   // per sequence per decode step (sampling, logits processing, scheduling)
  double prefill_chunk_overhead = 0;  // per prefill chunk (one scheduler iteration)
  double kv_block_tokens = 0;         // KV cache page (block) of its paged decode kernel; 0: no page penalty
  const LayerRecipe* recipe = nullptr;  // kernels per stage; nullptr: the work model's counts
  const char* provenance = "";          // what the values rest on (docs/accuracy.md "Profiles")
  bool apriori = false;                 // no public row checks the profile: documented a-priori values
  std::string label() const { return *versions ? std::string(name) + "@" + versions : std::string(name); }
};

// A resolved profile and what the choice says ("unversioned: the newest profile ...").
struct ProfileChoice {
  const ServingStackProfile* profile = nullptr;
  std::string note;
};

// The machine family's efficiencies from a validated `efficiency:` block; a missing key (a
// machine built in code with no block) takes the schema default.
FamilyEfficiency family_from_params(const ParamSet& p);

// The machine family a validated `efficiency:` block names (`family`: "A100", "H100/H200"); empty
// when the block names none or the machine has no block (uncalibrated).
std::string family_name(const ParamSet& p);

// The schema of the machine block calibrated reads (`efficiency:`, machine_params.cpp).
std::span<const ParamSpec> calibrated_machine_params();

// The shipped profiles (profiles.cpp); `modern-stack` first, `generic` second.
const std::vector<ServingStackProfile>& serving_stack_profiles();
// The profile of framework `name` whose version range holds `version` ("0.6.3", "v0.7a");
// an empty, "main" or unparsable version takes the framework's newest profile and says so in
// the note. nullptr when `name` has no profile or no range holds the version.
ProfileChoice select_serving_stack_profile(std::string_view name, std::string_view version);
// Back-compatible: select_serving_stack_profile(name, "").profile.
const ServingStackProfile* find_serving_stack_profile(std::string_view name);
// The framework names with a profile, once each, in table order.
std::vector<std::string> profile_serving_stack_names();

// Which blocks' opening RMSNorm runs inside the fused all-reduce in front of them (plugin
// parameter `allreduce_norm_fusion`): the attention block's (attn.qkv) when every FFN/MoE
// reduction of the step is a fusable all-reduce, the FFN block's (ffn.up, moe.router) when
// attn.tp_reduce is.
struct NormFusion {
  bool attn_block_norm = false;
  bool ffn_block_norm = false;
};
NormFusion norm_fusion(const EvalContext& ctx, const StepWork& work);
// Whether stage `w` loses its norm kernel under `f`.
bool fused_norm(const NormFusion& f, const StageWork& w);

class CalibratedLatency final : public LatencyModel {
 public:
  explicit CalibratedLatency(const ServingStackProfile& profile, const TpOverlapPolicy& tp_overlap = {},
                             bool allreduce_norm_fusion = false)
      : profile_(profile), tp_overlap_(tp_overlap), allreduce_norm_fusion_(allreduce_norm_fusion) {}
  void time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const override;
  const ServingStackProfile& profile() const { return profile_; }

  // The same with explicit family efficiencies instead of the machine's block (fitting, tests).
  // `sequences`: decode sequences in the step (per-sequence cost); `chunks`: the prompt's
  // prefill chunks, charged on the chunk that yields the first token; `mode`: the step's
  // workload's (StepCall::workload.mode).
  void time_step_with(const EvalContext& ctx, const FamilyEfficiency& fam, const StepWork& work,
                      StageList& out, std::int64_t sequences = 0, std::int64_t chunks = 1,
                      Mode mode = Mode::decode) const;

  const TpOverlapPolicy& tp_overlap() const { return tp_overlap_; }
  bool allreduce_norm_fusion() const { return allreduce_norm_fusion_; }

 private:
  ServingStackProfile profile_;
  TpOverlapPolicy tp_overlap_;
  bool allreduce_norm_fusion_ = false;
};

}  // namespace tessera::plugins
