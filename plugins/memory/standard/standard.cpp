// docs/physics.md "Memory".
#include "standard.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace tessera::plugins {

void StandardMemory::evaluate(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                              const Layout& layout, MemoryUsage& out) const {
  const ModelSpec& m = *ctx.model;
  ShardSizes sh;
  compute_shards(ctx, workload, c, layout, sh);

  // The most loaded stage: ceil(L/pp) layers, as many of the heavier FFN kind as one stage holds
  // (EvalContext::stage_ffns), then the other, the rest without an FFN; its mixers by kind
  // (EvalContext::stage_mixers); plus the embedding and the lm_head it holds (both when pp = 1, the
  // larger otherwise).
  const double layers = std::ceil(static_cast<double>(m.layers) / c.pp);
  const bool moe_heavier = sh.moe_weight_bytes >= sh.dense_ffn_weight_bytes;
  const LayerFfn first = moe_heavier ? LayerFfn::moe : LayerFfn::dense;
  const LayerFfn second = moe_heavier ? LayerFfn::dense : LayerFfn::moe;
  const std::array<double, kLayerFfnCount> ffns = ctx.stage_ffns(c.pp);
  const double n_first = std::min(layers, ffns[static_cast<std::size_t>(first)]);
  const double n_second = std::min(layers - n_first, ffns[static_cast<std::size_t>(second)]);
  const double n_moe = moe_heavier ? n_first : n_second, n_dense = moe_heavier ? n_second : n_first;
  const double ffn_part = n_moe * sh.moe_weight_bytes + n_dense * sh.dense_ffn_weight_bytes;
  const std::array<double, kAttentionKindCount> mix = ctx.stage_mixers(c.pp);
  const auto of = [&mix](AttentionKind k) { return mix[static_cast<std::size_t>(k)]; };
  const double mixer_part =
      kv_cache_layers(mix) * sh.attn_weight_bytes + of(AttentionKind::sparse) * sh.indexer_weight_bytes +
      of(AttentionKind::linear) * sh.linear_weight_bytes + of(AttentionKind::mamba) * sh.mamba_weight_bytes;
  const double ends =
      c.pp == 1 ? sh.embedding_bytes + sh.lm_head_bytes : std::max(sh.embedding_bytes, sh.lm_head_bytes);
  out.weights_bytes = mixer_part + ffn_part + ends;
  // KV and state: each mixer kind of the stage at its own bounded context (a recurrent layer's
  // state does not grow with it).
  out.kv_bytes = of(AttentionKind::full) * sh.kv_bytes_per_layer +
                 of(AttentionKind::sliding) * sh.kv_bytes_sliding_layer +
                 of(AttentionKind::chunked) * sh.kv_bytes_chunked_layer +
                 of(AttentionKind::sparse) * sh.kv_bytes_sparse_layer +
                 of(AttentionKind::linear) * sh.state_bytes_linear_layer +
                 of(AttentionKind::mamba) * sh.state_bytes_mamba_layer;

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
