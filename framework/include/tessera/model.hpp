#pragma once
// A transformer model's dimensions (docs/specification.md §2.2 "Model file"). Plain data: the formulas that
// use
// it live in tessera/physics/.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tessera/dtype.hpp"
#include "tessera/export.hpp"

namespace tessera {

enum class FfnKind : std::uint8_t {
  gated,  // 3 matrices: gate, up, down (SwiGLU, GeGLU)
  plain,  // 2 matrices: up, down (GELU MLP)
};

// The FFN a layer runs: the dense FFN of size `ffn`, the mixture of experts (`moe`), or none
// (Nemotron-H's mixer-only layers: a Mamba-2 or attention layer without an MLP).
enum class LayerFfn : std::uint8_t { dense, moe, none };
inline constexpr int kLayerFfnCount = 3;

// Mixture of experts: replaces the dense FFN in all but the first `dense_layers` layers, or in
// the layers ModelSpec::ffn_types names.
struct MoESpec {
  std::int64_t experts = 0;         // E
  std::int64_t top_k = 0;           // K, distinct experts per token
  std::int64_t expert_ffn = 0;      // I_e, intermediate size of one expert
  std::int64_t shared_experts = 0;  // E_s, always-on experts of size I_e
  std::int64_t dense_layers = 0;    // leading layers with the dense FFN of size `ffn`
  bool router_bias = false;         // the router carries a bias of E (gpt-oss)
  // Systematic skew of the router: the coefficient of variation of the experts' routed load
  // (docs/physics.md §4 "MoE load"); 0 = uniform routing.
  double load_cv = 0;
  // The deployment's expert-parallel load balancer (EPLB), set by the scenario's serving.eplb
  // (or a pool's) as `dtype:` is applied, never by a model file: `eplb` on, R redundant expert
  // slots beside the E experts ((E + R)/ep per EP rank).
  bool eplb = false;
  std::int64_t redundant_experts = 0;
};

// Multi-head latent attention (DeepSeek-V2/V3).
struct MLASpec {
  std::int64_t kv_lora_rank = 0;  // compressed KV width (cached)
  std::int64_t q_lora_rank = 0;   // compressed Q width (0: no Q compression)
  std::int64_t rope_dim = 0;      // decoupled RoPE key width (cached)
  std::int64_t nope_dim = 0;      // per-head non-RoPE query/key width
  std::int64_t v_head_dim = 0;    // per-head value width
};

// The token mixer one layer runs (docs/physics.md §3 "Layer kinds"): which earlier tokens a
// query reads, and so which keys and values — or which recurrent state — the layer keeps.
enum class AttentionKind : std::uint8_t {
  full,     // every earlier token of the sequence
  sliding,  // the last `sliding_window` tokens (gpt-oss, Gemma 3, Mistral 7B v0.1)
  chunked,  // the tokens of its own chunk of `chunk` tokens (Llama 4's local layers)
  sparse,   // top_k earlier tokens an indexer picks over all of them (DeepSeek-V3.2's DSA)
  linear,   // Gated DeltaNet linear attention (Qwen3-Next): a recurrent state, no KV
  mamba,    // Mamba-2 state-space mixer (Nemotron-H): a recurrent state, no KV
  none,     // no token mixer (Nemotron-H's MLP-only layers)
};
inline constexpr int kAttentionKindCount = 7;

// Softmax attention over cached keys and values (full, sliding, chunked, sparse): the kinds with
// Q/K/V projections and a KV cache; linear and mamba keep a state, none keeps nothing.
constexpr bool has_kv_cache(AttentionKind k) {
  return k == AttentionKind::full || k == AttentionKind::sliding || k == AttentionKind::chunked ||
         k == AttentionKind::sparse;
}
// The layers of those kinds among `mix` (layers of each kind, AttentionKind's order).
inline double kv_cache_layers(const std::array<double, kAttentionKindCount>& mix) {
  double n = 0;
  for (int k = 0; k < kAttentionKindCount; ++k)
    if (has_kv_cache(static_cast<AttentionKind>(k))) n += mix[static_cast<std::size_t>(k)];
  return n;
}

// The local attention kinds' sizes, attention sinks and the output gate.
struct LocalAttentionSpec {
  std::int64_t sliding_window = 0;  // W: keys a sliding layer's query reads (its own included)
  std::int64_t chunk = 0;           // C: chunk size of a chunked layer
  bool sinks = false;               // one learned sink logit per query head and layer (gpt-oss)
  // A sigmoid gate on the attention output, computed by the query projection (Qwen3-Next's
  // gated attention): q_proj is twice as wide (query and gate per head).
  bool output_gate = false;
};

// DeepSeek Sparse Attention (DeepSeek-V3.2): a lightning indexer of `index_heads` heads of
// `index_head_dim` scores every earlier token from its cached index key (FP8, one fp32 scale);
// the attention then reads the top_k best (docs/physics.md §3 "Sparse attention").
struct SparseAttentionSpec {
  std::int64_t index_heads = 0;     // h_I
  std::int64_t index_head_dim = 0;  // d_I, also the cached index key's width
  std::int64_t top_k = 0;           // k: keys each query reads
};

// Gated DeltaNet (Yang et al., ICLR 2025; Qwen3-Next's linear_attention layers): per value head
// a key_head_dim x value_head_dim state updated by the gated delta rule. The defaults are the
// field table's (scenario/fields/fields_model.cpp): a key left out keeps them.
struct LinearAttentionSpec {
  std::int64_t key_heads = 0;       // n_k (query and key heads)
  std::int64_t value_heads = 0;     // n_v (value heads; one state each)
  std::int64_t key_head_dim = 0;    // d_k
  std::int64_t value_head_dim = 0;  // d_v
  std::int64_t conv_kernel = 4;     // K_c: the short causal convolution over q, k, v
  std::int64_t chunk = 64;          // C: the prefill scan's chunk (flash-linear-attention: 64)
};

// Mamba-2 (Dao & Gu, ICML 2024; Nemotron-H's M layers): `heads` heads of head_dim channels, each
// with a head_dim x state_size state; B and C shared by the heads of each of `groups` groups.
struct MambaSpec {
  std::int64_t heads = 0;        // n_h
  std::int64_t head_dim = 0;     // P
  std::int64_t state_size = 0;   // N
  std::int64_t groups = 1;       // n_g
  std::int64_t conv_kernel = 4;  // K_c
  std::int64_t chunk = 256;      // Q: the SSD algorithm's chunk in prefill (mamba_ssm's default)
};

namespace detail {
// One walk over the per-layer list `kinds` (`layers` of them, kinds numbered 0..N-1): each kind's
// layers in the model (`total`) and the most of them one pipeline stage of ⌈L/pp⌉ layers holds
// (`most`): stage s holds layers [s·⌈L/pp⌉, (s+1)·⌈L/pp⌉), a short last stage counted as full of
// each kind, and no stage more than the model has of a kind (min(⌈L/pp⌉, total)).
template <typename Kind, std::size_t N>
void kind_counts(const Kind* kinds, std::int64_t layers, std::int64_t pp, std::array<std::int64_t, N>& total,
                 std::array<std::int64_t, N>& most) {
  total.fill(0);
  most.fill(0);
  const std::int64_t per = pp > 0 ? (layers + pp - 1) / pp : layers;
  if (per < 1) return;
  for (std::int64_t lo = 0; lo < layers; lo += per) {
    const std::int64_t hi = lo + per < layers ? lo + per : layers;
    std::array<std::int64_t, N> n{};
    for (std::int64_t i = lo; i < hi; ++i) ++n[static_cast<std::size_t>(kinds[static_cast<std::size_t>(i)])];
    for (std::size_t k = 0; k < N; ++k) {
      total[k] += n[k];
      const std::int64_t in_stage = n[k] + per - (hi - lo);
      most[k] = in_stage > most[k] ? in_stage : most[k];
    }
  }
  for (std::size_t k = 0; k < N; ++k) {
    const std::int64_t cap = per < total[k] ? per : total[k];
    most[k] = most[k] < cap ? most[k] : cap;
  }
}
}  // namespace detail

struct ModelSpec {
  std::string name;
  std::int64_t layers = 0;    // L
  std::int64_t hidden = 0;    // H
  std::int64_t heads = 0;     // h_q
  std::int64_t kv_heads = 0;  // h_kv
  std::int64_t head_dim = 0;  // d
  std::int64_t ffn = 0;       // I
  FfnKind ffn_kind = FfnKind::gated;
  std::int64_t vocab = 0;  // V
  bool tied_embeddings = false;
  bool attention_bias = false;
  bool mlp_bias = false;
  // Attention and FFN read the same input and their outputs are summed into the residual
  // (GPT-J, GPT-NeoX, Falcon, PaLM): one tensor-parallel reduction per layer instead of two
  // (docs/physics.md §4, "Parallel block").
  bool parallel_block = false;
  DTypes dtype;
  bool has_moe = false;
  MoESpec moe;
  bool has_mla = false;
  MLASpec mla;
  // Each layer's attention kind, in order; empty: every layer full. The physics reads the
  // counts (layers_of), which make_eval_context takes once per model.
  std::vector<AttentionKind> layer_types;
  LocalAttentionSpec attention;
  SparseAttentionSpec sparse;  // with a sparse layer
  LinearAttentionSpec linear;  // with a linear layer
  MambaSpec mamba;             // with a mamba layer
  // Each layer's FFN, in order (Llama-4 Maverick's alternating dense and MoE layers, Qwen's
  // decoder_sparse_step); empty: moe.dense_layers leading dense layers, then MoE (every layer
  // dense without `moe`).
  std::vector<LayerFfn> ffn_types;
  // Multi-token-prediction modules the checkpoint ships (HF num_nextn_predict_layers): drafters
  // for speculative decoding (serving.speculative method mtp, docs/physics.md §12.8). They are
  // not among `layers` and decode without speculation never runs them.
  std::int64_t mtp_layers = 0;

  std::int64_t moe_layers() const {
    if (!has_moe) return 0;
    if (ffn_types.empty()) return layers - moe.dense_layers;
    return ffn_layers_of(LayerFfn::moe);
  }
  // Layers without an FFN (ffn_types' none).
  std::int64_t ffn_free_layers() const { return ffn_layers_of(LayerFfn::none); }
  std::int64_t dense_ffn_layers() const { return layers - moe_layers() - ffn_free_layers(); }
  std::int64_t ffn_layers_of(LayerFfn k) const {
    std::int64_t n = 0;
    for (const LayerFfn f : ffn_types) n += f == k ? 1 : 0;
    return n;
  }
  // The most layers of FFN kind `k` one pipeline stage of ceil(L / pp) layers holds (docs/physics.md
  // §8; stage_ffns' entry k).
  std::int64_t stage_ffn_layers(LayerFfn k, std::int64_t pp) const {
    return static_cast<std::int64_t>(stage_ffns(pp)[static_cast<std::size_t>(k)]);
  }
  // Layers of attention kind `k` (full: every layer when layer_types is empty).
  std::int64_t layers_of(AttentionKind k) const {
    if (layer_types.empty()) return k == AttentionKind::full ? layers : 0;
    std::int64_t n = 0;
    for (const AttentionKind t : layer_types) n += t == k ? 1 : 0;
    return n;
  }
  // Whether some layer runs no mixer or no FFN (Nemotron-H's one block a layer), both lists
  // given in full.
  bool has_partial_layers() const {
    if (static_cast<std::int64_t>(layer_types.size()) != layers ||
        static_cast<std::int64_t>(ffn_types.size()) != layers)
      return false;
    for (std::size_t i = 0; i < layer_types.size(); ++i)
      if (layer_types[i] == AttentionKind::none || ffn_types[i] == LayerFfn::none) return true;
    return false;
  }
  // A model with such layers is priced by one real pipeline stage of ceil(L/pp) layers (each
  // kind's most in a stage would count a mixer and an FFN for layers that run one of them): the
  // stage whose layers weigh the most by `mixer_weight` and `ffn_weight` (a layer's parameters of
  // each kind: EvalContext's), ties to the most full-attention layers, then the first; a short
  // last stage counted with none for its missing layers. Its mixers and FFNs by kind.
  void heaviest_stage(std::int64_t pp, const std::array<double, kAttentionKindCount>& mixer_weight,
                      const std::array<double, kLayerFfnCount>& ffn_weight,
                      std::array<double, kAttentionKindCount>& mix,
                      std::array<double, kLayerFfnCount>& ffn) const {
    const std::int64_t per = pp > 0 ? (layers + pp - 1) / pp : layers;
    double best_weight = -1;
    double best_full = -1;
    for (std::int64_t lo = 0; per > 0 && lo < layers; lo += per) {
      const std::int64_t hi = lo + per < layers ? lo + per : layers;
      std::array<double, kAttentionKindCount> m{};
      std::array<double, kLayerFfnCount> f{};
      double weight = 0;
      for (std::int64_t i = lo; i < hi; ++i) {
        const auto a = static_cast<std::size_t>(layer_types[static_cast<std::size_t>(i)]);
        const auto b = static_cast<std::size_t>(ffn_types[static_cast<std::size_t>(i)]);
        m[a] += 1;
        f[b] += 1;
        weight += mixer_weight[a] + ffn_weight[b];
      }
      m[static_cast<std::size_t>(AttentionKind::none)] += static_cast<double>(per - (hi - lo));
      f[static_cast<std::size_t>(LayerFfn::none)] += static_cast<double>(per - (hi - lo));
      if (weight > best_weight || (weight == best_weight && m[0] > best_full)) {
        best_weight = weight;
        best_full = m[0];
        mix = m;
        ffn = f;
      }
    }
  }
  // The layers of each mixer kind on a path of `path` layers (docs/physics.md §8): the whole
  // model when path >= layers; one pipeline stage of ceil(L/pp) otherwise, each kind in
  // AttentionKind's order taking as many layers as one stage holds of it (detail::kind_counts)
  // within what the earlier kinds left, the rest going to the last
  // kind the model has. One walk over layer_types.
  std::array<double, kAttentionKindCount> path_mixers(double path, std::int64_t pp) const {
    std::array<double, kAttentionKindCount> n{};
    if (layer_types.empty() || static_cast<std::int64_t>(layer_types.size()) != layers) {
      n[0] = path;
      return n;
    }
    std::array<std::int64_t, kAttentionKindCount> total{}, most{};
    detail::kind_counts(layer_types.data(), layers, pp, total, most);
    const bool stage = path < static_cast<double>(layers);
    double left = path;
    int last = 0;
    for (int i = 0; i < kAttentionKindCount; ++i) {
      const auto k = static_cast<std::size_t>(i);
      const double of = static_cast<double>(stage ? most[k] : total[k]);
      n[k] = of < left ? of : left;
      left -= n[k];
      if (total[k] > 0) last = i;
    }
    n[static_cast<std::size_t>(last)] += left;
    return n;
  }
  // The layers of each FFN kind (LayerFfn's order) the heaviest pipeline stage of ceil(L/pp)
  // layers holds, each kind's most in a stage (detail::kind_counts, one walk over ffn_types);
  // without the list (leading dense layers) min(⌈L/pp⌉, the model's); pp = 1: the model's.
  std::array<double, kLayerFfnCount> stage_ffns(std::int64_t pp) const {
    std::array<double, kLayerFfnCount> n{};
    if (!ffn_types.empty() && static_cast<std::int64_t>(ffn_types.size()) == layers) {
      std::array<std::int64_t, kLayerFfnCount> total{}, most{};
      detail::kind_counts(ffn_types.data(), layers, pp, total, most);
      for (std::size_t k = 0; k < n.size(); ++k) n[k] = static_cast<double>(most[k]);
      return n;
    }
    const double per = static_cast<double>(pp > 0 ? (layers + pp - 1) / pp : layers);
    const double moe_n = static_cast<double>(moe_layers()), dense_n = static_cast<double>(layers) - moe_n;
    n[static_cast<std::size_t>(LayerFfn::dense)] = per < dense_n ? per : dense_n;
    n[static_cast<std::size_t>(LayerFfn::moe)] = per < moe_n ? per : moe_n;
    return n;
  }
};

// Parameter counts (docs/specification.md §2.2, docs/physics.md §2): every weight; and what one token touches
// (embedding and
// lm_head included, K routed + shared experts).
TESSERA_API double params_total(const ModelSpec& m);
TESSERA_API double params_active(const ModelSpec& m);

}  // namespace tessera
