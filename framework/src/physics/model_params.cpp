// Parameter counts from a model's dimensions (docs/specification.md §2.2): docs/physics.md §2 "Parameters".
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
  double p = H * d * (hq + 2 * hkv) + hq * d * H;
  if (m.attention_bias) p += d * (hq + 2 * hkv) + H;
  if (m.attention.sinks) p += hq;  // one sink logit per query head
  return p;
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
// Norm weights: two per layer and a final one (small; counted so totals match checkpoints).
double norm_params(const ModelSpec& m) { return static_cast<double>(2 * m.layers + 1) * m.hidden; }

double head_params(const ModelSpec& m) { return embedding_params(m) * (m.tied_embeddings ? 1.0 : 2.0); }
}  // namespace

namespace {
// The parameters a token meets when `experts` routed experts of each MoE layer count (all of
// them: the model's size; top_k: what one token touches). The router is always whole.
double params_with_experts(const ModelSpec& m, std::int64_t experts) {
  const double L = static_cast<double>(m.layers);
  double p = L * attention_params_per_layer(m) + norm_params(m) + head_params(m);
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
