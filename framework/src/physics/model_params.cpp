// Parameter counts from a model's dimensions (docs/specification.md §2.2): docs/physics.md §2 "Parameters".
#include "physics/mixer_shares.hpp"
#include "physics/model_weights.hpp"
#include "tessera/model.hpp"

namespace tessera {

double attention_params_per_layer(const ModelSpec& m) {
  const double H = static_cast<double>(m.hidden);
  const double hq = static_cast<double>(m.heads);
  if (m.has_mla) {
    const auto& a = m.mla;
    const double qk = static_cast<double>(a.nope_dim + a.rope_dim);
    const double q = a.q_lora_rank > 0
                         ? H * a.q_lora_rank + a.q_lora_rank + static_cast<double>(a.q_lora_rank) * hq * qk
                         : H * hq * qk;
    const double kv =
        H * static_cast<double>(a.kv_lora_rank + a.rope_dim) + a.kv_lora_rank +
        static_cast<double>(a.kv_lora_rank) * hq * static_cast<double>(a.nope_dim + a.v_head_dim);
    const double o = hq * a.v_head_dim * H;
    return q + kv + o;
  }
  const double d = static_cast<double>(m.head_dim);
  const double hkv = static_cast<double>(m.kv_heads);
  const double q_width = hq * (m.attention.output_gate ? 2.0 : 1.0);  // gated attention: query and gate
  double p = H * d * (q_width + 2 * hkv) + hq * d * H;
  if (m.attention_bias) p += d * (q_width + 2 * hkv) + H;
  if (m.attention.sinks) p += hq;  // one sink logit per query head
  return p;
}

double indexer_params(const ModelSpec& m) {
  const auto& s = m.sparse;
  const double H = static_cast<double>(m.hidden);
  const double q_in = m.has_mla && m.mla.q_lora_rank > 0 ? static_cast<double>(m.mla.q_lora_rank) : H;
  const double ih = static_cast<double>(s.index_heads), id = static_cast<double>(s.index_head_dim);
  // wq_b (query latent -> h_I d_I), wk (H -> d_I), weights_proj (H -> h_I), the key's LayerNorm.
  return q_in * ih * id + H * id + H * ih + 2 * id;
}

double linear_attention_params(const ModelSpec& m) { return linear_layer_params(m, mixer_share(m, 1)); }

double mamba_params(const ModelSpec& m) { return mamba_layer_params(m, mixer_share(m, 1)); }

double mixer_params(const ModelSpec& m, AttentionKind k) {
  switch (k) {
    case AttentionKind::linear:
      return linear_attention_params(m);
    case AttentionKind::mamba:
      return mamba_params(m);
    case AttentionKind::none:
      return 0;
    case AttentionKind::sparse:
      return attention_params_per_layer(m) + indexer_params(m);
    default:
      return attention_params_per_layer(m);
  }
}

double ffn_params(const ModelSpec& m, double intermediate) {
  const double H = static_cast<double>(m.hidden);
  const double mats = m.ffn_kind == FfnKind::gated ? 3.0 : 2.0;
  double p = mats * H * intermediate;
  if (m.mlp_bias) p += (mats - 1) * intermediate + H;
  return p;
}

double expert_params(const ModelSpec& m) { return ffn_params(m, static_cast<double>(m.moe.expert_ffn)); }

double expert_matrix_params(const ModelSpec& m) {
  return (m.ffn_kind == FfnKind::gated ? 3.0 : 2.0) * static_cast<double>(m.hidden) *
         static_cast<double>(m.moe.expert_ffn);
}

double embedding_params(const ModelSpec& m) { return static_cast<double>(m.vocab) * m.hidden; }

namespace {
// Norm weights: one before each layer's mixer and one before its FFN, and a final one (small;
// counted so totals match checkpoints).
double norm_params(const ModelSpec& m) {
  const std::int64_t blocks = 2 * m.layers - m.layers_of(AttentionKind::none) - m.ffn_free_layers();
  return static_cast<double>(blocks + 1) * m.hidden;
}

double head_params(const ModelSpec& m) { return embedding_params(m) * (m.tied_embeddings ? 1.0 : 2.0); }
}  // namespace

namespace {
// The parameters a token meets when `experts` routed experts of each MoE layer count (all of
// them: the model's size; top_k: what one token touches). The router is always whole.
double params_with_experts(const ModelSpec& m, std::int64_t experts) {
  double p = norm_params(m) + head_params(m);
  for (int i = 0; i < kAttentionKindCount; ++i) {
    const auto k = static_cast<AttentionKind>(i);
    const auto n = m.layers_of(k);
    if (n > 0) p += static_cast<double>(n) * mixer_params(m, k);
  }
  p += static_cast<double>(m.dense_ffn_layers()) * ffn_params(m, static_cast<double>(m.ffn));
  if (m.has_moe) {
    const double per_layer = static_cast<double>(experts + m.moe.shared_experts) * expert_params(m) +
                             static_cast<double>(m.hidden + (m.moe.router_bias ? 1 : 0)) *
                                 static_cast<double>(m.moe.experts);  // router
    p += static_cast<double>(m.moe_layers()) * per_layer;
  }
  return p;
}
}  // namespace

double params_total(const ModelSpec& m) { return params_with_experts(m, m.moe.experts); }

// A token touches the embedding row and the whole lm_head; both count (one matrix if tied).
double params_active(const ModelSpec& m) { return params_with_experts(m, m.moe.top_k); }

}  // namespace tessera
