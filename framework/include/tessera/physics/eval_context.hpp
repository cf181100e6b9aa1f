#pragma once
// Everything fixed for one scenario evaluation: the model, the machine and the constants derived
// from them once (not per configuration). Immutable once built: the workload — what is asked of
// the model on the machine (mode, batch, context, chunk, scope, ISL/OSL) — is the query, handed
// beside the context to each call (StepCall::workload, MemoryModel::evaluate,
// Objective::evaluate), so asking another question never copies or rewrites a context.
#include <array>

#include "tessera/export.hpp"
#include "tessera/machine.hpp"
#include "tessera/model.hpp"
#include "tessera/workload.hpp"  // the query handed beside the context (kinds/*.hpp)

namespace tessera {

// The kernel an MoE layer's token exchange runs when the members of the FFN group hold different
// tokens and the experts are spread over ep > 1 of them (docs/physics.md §5 "MoE all-to-all
// kernels"); the framework's flags choose it per phase (docs/frameworks.md "MoE per phase").
enum class MoeA2a : std::uint8_t {
  deepep_normal,       // an all-to-all that sends a token once per rank and per node holding its experts
  deepep_low_latency,  // an all-to-all of every token-expert copy (pplx-kernels, NCCL's all-to-all alike)
  gather_scatter,      // the FFN group all-gathers the tokens and reduce-scatters the outputs
  all_reduce_gather,   // the FFN group all-reduces a zeroed buffer of every member's tokens (a gather)
                       // and all-reduces the outputs back (SGLang's attention-DP without DeepEP, prefill)
};
TESSERA_API const char* moe_a2a_name(MoeA2a k);  // "deepep_normal", ...

struct EvalContext {
  const ModelSpec* model = nullptr;      // effective model (scenario dtype applied)
  const MachineSpec* machine = nullptr;  // effective machine (overrides applied)

  // Derived once by make_eval_context (docs/physics.md §1 "Number formats").
  double act_bytes = 2;       // a
  double weight_bytes = 2;    // w: the `weights` format (router; parts not named)
  double kv_bytes = 2;        // k
  double dispatch_bytes = 2;  // p: the MoE dispatch payload per element
  double state_bytes = 2;     // s: a linear or mamba layer's recurrent state per element
  // The MoE exchange of a prefill or mixed step (phase 0) and of a decode step (1), with the
  // experts spread over part of the FFN group (0) or all of it (1): moe_a2a[2 phase + full]. Set
  // from the scenario's framework (eval/session.cpp); DeepEP's auto mode when none is named.
  std::array<MoeA2a, 4> moe_a2a{MoeA2a::deepep_normal, MoeA2a::deepep_normal, MoeA2a::deepep_low_latency,
                                MoeA2a::deepep_low_latency};
  MoeA2a a2a_kernel(bool decode, bool ep_full) const {
    return moe_a2a[static_cast<std::size_t>(2 * static_cast<int>(decode) + static_cast<int>(ep_full))];
  }
  // By WeightPart: bytes per weight element (w_attn, w_ffn, ...), the format each part's GEMMs
  // run at (DTypes::gemm) and its peak (FLOP/s).
  std::array<double, kWeightPartCount> part_weight_bytes{2, 2, 2, 2, 2, 2};
  std::array<DType, kWeightPartCount> part_gemm_dtype{DType::bf16, DType::bf16, DType::bf16,
                                                      DType::bf16, DType::bf16, DType::bf16};
  std::array<double, kWeightPartCount> part_gemm_peak{};
  double gemm_peak = 0;            // FLOP/s of the `weights` GEMMs: the wider of weights and activations
  double util_peak = 0;            // compute_util's peak: the fastest GEMM peak of the model's parts
  double attn_peak = 0;            // FLOP/s for attention: the wider of the attention math and KV formats
  DType attn_dtype = DType::bf16;  // that format
  double hbm_bw = 0;               // B/s
  // Standard attention: 2*d elements per token per KV head. MLA: kv_lora_rank + rope_dim
  // elements per token for the single shared latent "head".
  double kv_elems_per_token_head = 0;
  std::int64_t kv_heads_eff = 0;  // h_kv, or 1 for MLA's shared latent cache
  // Layers of every mixer kind (AttentionKind's order) of the whole model, counted once.
  std::array<double, kAttentionKindCount> mixer_layers{};
  // The layers of each FFN kind (LayerFfn's order) of the whole model, counted once.
  std::array<double, kLayerFfnCount> ffn_layers{};
  // Whether a layer runs no mixer or no FFN (ModelSpec::has_partial_layers), and the parameters
  // of one layer's mixer and FFN of each kind (a MoE layer's every expert and router), which
  // rank its pipeline stages.
  bool partial_layers = false;
  std::array<double, kAttentionKindCount> mixer_weight{};
  std::array<double, kLayerFfnCount> ffn_weight{};

  // The layers of each mixer kind and of each FFN kind the heaviest pipeline stage of ⌈L/pp⌉
  // layers holds: pp = 1 the counts above; a model whose layers run one block each
  // (ModelSpec::has_partial_layers) its heaviest real stage by the parameters of its layers
  // (ModelSpec::heaviest_stage over the weights above); else ModelSpec::path_mixers and
  // stage_ffns (one walk over a list; closed forms without it).
  std::array<double, kAttentionKindCount> stage_mixers(std::int64_t pp) const {
    if (pp <= 1) return mixer_layers;
    const double per = static_cast<double>((model->layers + pp - 1) / pp);
    if (model->layer_types.empty()) return {per};
    if (partial_layers) {
      std::array<double, kAttentionKindCount> mix{};
      std::array<double, kLayerFfnCount> ffn{};
      model->heaviest_stage(pp, mixer_weight, ffn_weight, mix, ffn);
      return mix;
    }
    return model->path_mixers(per, pp);
  }
  std::array<double, kLayerFfnCount> stage_ffns(std::int64_t pp) const {
    if (pp <= 1) return ffn_layers;
    if (partial_layers) {
      std::array<double, kAttentionKindCount> mix{};
      std::array<double, kLayerFfnCount> ffn{};
      model->heaviest_stage(pp, mixer_weight, ffn_weight, mix, ffn);
      return ffn;
    }
    return model->stage_ffns(pp);
  }

  // Bytes per weight element and GEMM peak of a part; `other` reads weight_bytes and gemm_peak.
  double w_of(WeightPart p) const {
    return p == WeightPart::other ? weight_bytes : part_weight_bytes[static_cast<std::size_t>(p)];
  }
  double gemm_peak_of(WeightPart p) const {
    return p == WeightPart::other ? gemm_peak : part_gemm_peak[static_cast<std::size_t>(p)];
  }
};

// No constant depends on a workload: one context serves every question asked of the pair.
TESSERA_API EvalContext make_eval_context(const ModelSpec& model, const MachineSpec& machine);

}  // namespace tessera
