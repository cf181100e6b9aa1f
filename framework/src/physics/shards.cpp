// What one PE holds: docs/physics.md §10 "Memory".
#include "tessera/physics/shards.hpp"

#include <algorithm>

#include "physics/mixer_shares.hpp"
#include "physics/model_weights.hpp"

namespace tessera {

namespace {
// The sparse layers' indexer (replicated on the TP ranks) and the weights of a linear or mamba
// layer held per PE (heads split by TP, replicated past them).
void mixer_weights(const EvalContext& ctx, const MixerShare& mix, double w_attn, ShardSizes& out) {
  const ModelSpec& m = *ctx.model;
  const auto has = [&ctx](AttentionKind k) { return ctx.mixer_layers[static_cast<std::size_t>(k)] > 0; };
  if (has(AttentionKind::sparse)) out.indexer_weight_bytes = indexer_params(m) * w_attn;
  if (has(AttentionKind::linear)) out.linear_weight_bytes = linear_layer_params(m, mix) * w_attn;
  if (has(AttentionKind::mamba)) out.mamba_weight_bytes = mamba_layer_params(m, mix) * w_attn;
}
}  // namespace

void compute_shards(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                    const Layout& layout, ShardSizes& out) {
  const ModelSpec& m = *ctx.model;
  // Bytes per weight element of each part (docs/physics.md §10).
  const double w = ctx.weight_bytes, w_attn = ctx.w_of(WeightPart::attention);
  const double w_ffn = ctx.w_of(WeightPart::ffn), w_exp = ctx.w_of(WeightPart::experts);
  const double w_head = ctx.w_of(WeightPart::lm_head);
  const double H = static_cast<double>(m.hidden);
  const double tp = c.tp, cp = c.cp;
  const double hq_pe = static_cast<double>(m.heads) / tp;
  const double hkv = static_cast<double>(ctx.kv_heads_eff);
  out.n_kv = std::max(1.0, hkv / tp);
  out.r = std::max(1.0, tp / hkv);
  const bool split = c.kv_shard_mode == KvShardMode::split && out.r > 1;

  if (m.has_mla) {
    const auto& a = m.mla;
    // Down-projections (H -> q_lora, H -> kv_lora + rope) are replicated on every TP rank;
    // the per-head up-projections and the output projection are split by heads.
    const double replicated = H * static_cast<double>(a.q_lora_rank + a.kv_lora_rank + a.rope_dim);
    const double q_up = a.q_lora_rank > 0 ? static_cast<double>(a.q_lora_rank) : H;
    const double per_head =
        q_up * static_cast<double>(a.nope_dim + a.rope_dim) +
        static_cast<double>(a.kv_lora_rank) * static_cast<double>(a.nope_dim + a.v_head_dim) +
        static_cast<double>(a.v_head_dim) * H;
    out.attn_weight_bytes =
        ((a.q_lora_rank > 0 ? replicated : H * (a.kv_lora_rank + a.rope_dim)) + hq_pe * per_head) * w_attn;
  } else {
    const double d = static_cast<double>(m.head_dim);
    const double q_width = hq_pe * (m.attention.output_gate ? 2.0 : 1.0);
    out.attn_weight_bytes = (H * d * (q_width + 2 * out.n_kv) + hq_pe * d * H) * w_attn;
  }
  // The other mixer kinds, only in models that name them.
  const bool kinds = !m.layer_types.empty();
  const MixerShare mix = kinds ? mixer_share(m, c.tp) : MixerShare{};
  if (kinds) mixer_weights(ctx, mix, w_attn, out);
  const double f = layout.ffn_group;
  out.dense_ffn_weight_bytes = ffn_params(m, static_cast<double>(m.ffn)) * w_ffn / f;
  if (m.has_moe) {
    // E/ep experts per EP rank, each sharded over f/ep PEs: E/f experts' worth per PE; with
    // EPLB's R redundant experts (E + R)/f (docs/physics.md §4 "MoE load"). The router is in
    // `weights`, routed and shared experts in expert_weights.
    const double routed = static_cast<double>(m.moe.experts + (m.moe.eplb ? m.moe.redundant_experts : 0));
    out.moe_weight_bytes = H * static_cast<double>(m.moe.experts) * w +
                           routed * expert_params(m) / f * w_exp +
                           static_cast<double>(m.moe.shared_experts) * expert_params(m) / f * w_exp;
  }
  out.embedding_bytes = embedding_params(m) * w_head / tp;
  out.lm_head_bytes = (m.tied_embeddings && c.pp == 1) ? 0.0 : embedding_params(m) * w_head / tp;

  out.s_loc_fraction = 1.0 / cp / (split ? out.r : 1.0);
  const double S = static_cast<double>(workload.context);
  const double per_token = static_cast<double>(workload.batch) * out.s_loc_fraction *
                           ctx.kv_elems_per_token_head * ctx.kv_bytes * out.n_kv;
  out.kv_bytes_per_layer = static_cast<double>(workload.batch) * S * out.s_loc_fraction *
                           ctx.kv_elems_per_token_head * ctx.kv_bytes * out.n_kv;
  // Local layers keep only the tokens their queries can still read (docs/physics.md §10).
  out.kv_bytes_sliding_layer = ctx.mixer_layers[static_cast<std::size_t>(AttentionKind::sliding)] > 0
                                   ? per_token * std::min(S, static_cast<double>(m.attention.sliding_window))
                                   : 0.0;
  out.kv_bytes_chunked_layer = ctx.mixer_layers[static_cast<std::size_t>(AttentionKind::chunked)] > 0
                                   ? per_token * std::min(S, static_cast<double>(m.attention.chunk))
                                   : 0.0;
  const double B = static_cast<double>(workload.batch);
  if (kinds) {
    const auto has = [&ctx](AttentionKind k) { return ctx.mixer_layers[static_cast<std::size_t>(k)] > 0; };
    if (has(AttentionKind::sparse))  // index keys: every TP rank holds them whole
      out.kv_bytes_sparse_layer = out.kv_bytes_per_layer + B * S / cp * index_key_bytes(m);
    // Every CP rank keeps the whole state (decode repeats the same tokens on each).
    const double s = ctx.state_bytes;
    if (has(AttentionKind::linear)) out.state_bytes_linear_layer = B * linear_state_elems(m, mix) * s;
    if (has(AttentionKind::mamba)) out.state_bytes_mamba_layer = B * mamba_state_elems(m, mix) * s;
  }
}

}  // namespace tessera
