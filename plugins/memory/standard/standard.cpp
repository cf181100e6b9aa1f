// docs/physics.md "Memory".
#include "standard.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::plugins {

void StandardMemory::evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                              const Layout& layout, MemoryUsage& out) const {
  const ModelSpec& m = *ctx.model;
  ShardSizes sh;
  compute_shards(ctx, workload, c, layout, sh);

  // The most loaded stage: ceil(L/pp) layers, as many of the heavier FFN kind as one stage holds
  // (ModelSpec::stage_ffn_layers), plus the embedding and the lm_head it holds (both when pp = 1,
  // the larger otherwise).
  const double layers = std::ceil(static_cast<double>(m.layers) / c.pp);
  double ffn_part;
  if (sh.moe_weight_bytes >= sh.dense_ffn_weight_bytes) {
    const double n_moe = std::min(layers, static_cast<double>(m.stage_ffn_layers(LayerFfn::moe, c.pp)));
    ffn_part = n_moe * sh.moe_weight_bytes + (layers - n_moe) * sh.dense_ffn_weight_bytes;
  } else {
    const double n_dense = std::min(layers, static_cast<double>(m.stage_ffn_layers(LayerFfn::dense, c.pp)));
    ffn_part = n_dense * sh.dense_ffn_weight_bytes + (layers - n_dense) * sh.moe_weight_bytes;
  }
  const double ends =
      c.pp == 1 ? sh.embedding_bytes + sh.lm_head_bytes : std::max(sh.embedding_bytes, sh.lm_head_bytes);
  out.weights_bytes = layers * sh.attn_weight_bytes + ffn_part + ends;
  // KV: the stage's full-attention layers first (as many as one stage holds), then the sliding
  // ones likewise (ModelSpec::stage_attention_layers), each kind at its own bounded context.
  const double full =
      std::min(layers, static_cast<double>(m.stage_attention_layers(AttentionKind::full, c.pp)));
  const double sliding =
      std::min(layers - full, static_cast<double>(m.stage_attention_layers(AttentionKind::sliding, c.pp)));
  out.kv_bytes = full * sh.kv_bytes_per_layer + sliding * sh.kv_bytes_sliding_layer +
                 (layers - full - sliding) * sh.kv_bytes_chunked_layer;

  // Transient: the largest live activation set of one stage, the fp32 logits, and a send and
  // a receive buffer for the largest collective.
  const Workload& w = workload;
  const double a = ctx.act_bytes, H = static_cast<double>(m.hidden);
  const double T = static_cast<double>(w.mode == Mode::decode ? w.batch : w.batch * w.chunk_tokens());
  const double T_rank = rank_tokens(c, w.mode, T);
  const double T_f = ffn_group_tokens(c, w.mode, T);
  const double f = layout.ffn_group;
  const double inter = m.has_moe ? static_cast<double>(std::max(m.ffn, m.moe.expert_ffn * m.moe.top_k))
                                 : static_cast<double>(m.ffn);
  const double up = (m.ffn_kind == FfnKind::gated ? 2.0 : 1.0) * inter / f;
  const double attn_live = T_rank * (2 * H + static_cast<double>(m.heads) / c.tp * m.head_dim * 2) * a;
  const double ffn_live = T_f * (H + up) * a;
  const double logits = static_cast<double>(w.batch) * static_cast<double>(m.vocab) / c.tp * 4.0;
  const double comm = 2 * T_f * H * a;
  out.transient_bytes = std::max({attn_live, ffn_live, logits}) + comm;

  out.used_bytes = out.weights_bytes + out.kv_bytes + out.transient_bytes;
  out.budget_bytes = ctx.machine->pe.hbm_capacity * ctx.machine->pe.hbm_usable - reserve_bytes_;
  out.fits = out.used_bytes <= out.budget_bytes;
}

}  // namespace tessera::plugins
