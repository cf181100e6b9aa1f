#pragma once
// A transformer model's dimensions (docs/specification.md §2.2 "Model file"). Plain data: the formulas that
// use
// it live in tessera/physics/.
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

// The FFN a layer runs: the dense FFN of size `ffn`, or the mixture of experts (`moe`).
enum class LayerFfn : std::uint8_t { dense, moe };

// Mixture of experts: replaces the dense FFN in all but the first `dense_layers` layers, or in
// the layers ModelSpec::ffn_types names.
struct MoESpec {
  std::int64_t experts = 0;         // E
  std::int64_t top_k = 0;           // K, distinct experts per token
  std::int64_t expert_ffn = 0;      // I_e, intermediate size of one expert
  std::int64_t shared_experts = 0;  // E_s, always-on experts of size I_e
  std::int64_t dense_layers = 0;    // leading layers with the dense FFN of size `ffn`
  bool router_bias = false;         // the router carries a bias of E (gpt-oss)
};

// Multi-head latent attention (DeepSeek-V2/V3).
struct MLASpec {
  std::int64_t kv_lora_rank = 0;  // compressed KV width (cached)
  std::int64_t q_lora_rank = 0;   // compressed Q width (0: no Q compression)
  std::int64_t rope_dim = 0;      // decoupled RoPE key width (cached)
  std::int64_t nope_dim = 0;      // per-head non-RoPE query/key width
  std::int64_t v_head_dim = 0;    // per-head value width
};

// The attention one layer computes (docs/physics.md §3 "Layer kinds"): which earlier tokens a
// query reads, and so which keys and values the layer keeps.
enum class AttentionKind : std::uint8_t {
  full,     // every earlier token of the sequence
  sliding,  // the last `sliding_window` tokens (gpt-oss, Gemma 3, Mistral 7B v0.1)
  chunked,  // the tokens of its own chunk of `chunk` tokens (Llama 4's local layers)
};
inline constexpr int kAttentionKindCount = 3;

// The local attention kinds' sizes, and attention sinks.
struct LocalAttentionSpec {
  std::int64_t sliding_window = 0;  // W: keys a sliding layer's query reads (its own included)
  std::int64_t chunk = 0;           // C: chunk size of a chunked layer
  bool sinks = false;               // one learned sink logit per query head and layer (gpt-oss)
};

namespace detail {
// The most layers of kind `k` in one pipeline stage of ⌈L/pp⌉ layers by the per-layer list
// `kinds` (`count` of them) of a model of `layers` layers (a short last stage counted full of
// `k`), at most min(⌈L/pp⌉, of_kind); without a list (or one of another length), that bound.
template <typename Kind>
std::int64_t most_in_a_stage(const Kind* kinds, std::size_t count, Kind k, std::int64_t layers,
                             std::int64_t pp, std::int64_t of_kind) {
  const std::int64_t per = pp > 0 ? (layers + pp - 1) / pp : layers;
  const std::int64_t cap = per < of_kind ? per : of_kind;
  if (count == 0 || per < 1 || static_cast<std::int64_t>(count) != layers) return cap;
  std::int64_t most = 0;
  for (std::int64_t lo = 0; lo < layers; lo += per) {
    const std::int64_t hi = lo + per < layers ? lo + per : layers;
    std::int64_t n = per - (hi - lo);
    for (std::int64_t i = lo; i < hi; ++i) n += kinds[static_cast<std::size_t>(i)] == k ? 1 : 0;
    most = n > most ? n : most;
  }
  return most < cap ? most : cap;
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
  // Each layer's FFN, in order (Llama-4 Maverick's alternating dense and MoE layers, Qwen's
  // decoder_sparse_step); empty: moe.dense_layers leading dense layers, then MoE (every layer
  // dense without `moe`).
  std::vector<LayerFfn> ffn_types;

  std::int64_t moe_layers() const {
    if (!has_moe) return 0;
    if (ffn_types.empty()) return layers - moe.dense_layers;
    std::int64_t n = 0;
    for (const LayerFfn f : ffn_types) n += f == LayerFfn::moe ? 1 : 0;
    return n;
  }
  std::int64_t dense_ffn_layers() const { return layers - moe_layers(); }
  // The most layers of FFN kind `k` one pipeline stage holds, a stage being ceil(L / pp) layers
  // (docs/physics.md §8): stage s holds layers [s·⌈L/pp⌉, (s+1)·⌈L/pp⌉), a short last stage
  // counted as full of kind `k`, and no stage more than the model has of `k`. With leading dense
  // layers (no ffn_types) that is min(⌈L/pp⌉, layers of k), the closed form used then.
  std::int64_t stage_ffn_layers(LayerFfn k, std::int64_t pp) const {
    const std::int64_t of_kind = k == LayerFfn::moe ? moe_layers() : dense_ffn_layers();
    return detail::most_in_a_stage(ffn_types.data(), has_moe ? ffn_types.size() : 0, k, layers, pp, of_kind);
  }
  // The same for attention kind `k` (layer_types; empty: every layer full).
  std::int64_t stage_attention_layers(AttentionKind k, std::int64_t pp) const {
    return detail::most_in_a_stage(layer_types.data(), layer_types.size(), k, layers, pp, layers_of(k));
  }
  // Layers of attention kind `k` (full: every layer when layer_types is empty).
  std::int64_t layers_of(AttentionKind k) const {
    if (layer_types.empty()) return k == AttentionKind::full ? layers : 0;
    std::int64_t n = 0;
    for (const AttentionKind t : layer_types) n += t == k ? 1 : 0;
    return n;
  }
};

// Parameter counts (docs/specification.md §2.2, docs/physics.md §2): every weight; and what one token touches
// (embedding and
// lm_head included, K routed + shared experts).
TESSERA_API double params_total(const ModelSpec& m);
TESSERA_API double params_active(const ModelSpec& m);

}  // namespace tessera
