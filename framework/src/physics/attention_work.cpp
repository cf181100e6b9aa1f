// The attention block of one step (physics/attention_work.hpp), per PE and per occurrence, in the
// symbols of docs/physics.md §1 (listed in step_work.cpp); docs/physics.md §3 and §5 explain
// every line.
#include "physics/attention_work.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "physics/mixer_shares.hpp"
#include "physics/model_weights.hpp"
#include "physics/recurrent_work.hpp"
#include "physics/stage_builders.hpp"

namespace tessera::step_internal {

namespace {

// ---- attention block (docs/physics.md §3) ----------------------------------------------

// Per query per key: 4d FLOPs (QK^T and PV); MLA absorbed decode: 2(kv_lora+rope) + 2 kv_lora.
double per_query_key_flops(const ModelSpec& m, const Dims& x) {
  double per_qk = 4 * x.d;
  if (x.mla) {
    const auto& a = m.mla;
    per_qk = x.decode ? 2.0 * static_cast<double>(a.kv_lora_rank + a.rope_dim) +
                            2.0 * static_cast<double>(a.kv_lora_rank)
                      : 2.0 * static_cast<double>(a.nope_dim + a.rope_dim) +
                            2.0 * static_cast<double>(a.v_head_dim);
  }
  return per_qk;
}

// Q read and O written. MLA decode: the absorbed query is kv_lora + rope wide, the output
// kv_lora wide (the latent); MLA prefill: per-head (nope + rope) queries and v outputs.
double query_output_width(const ModelSpec& m, const Dims& x) {
  double qo_width = 2 * x.d;
  if (x.mla) {
    const auto& a = m.mla;
    qo_width = x.decode ? static_cast<double>(2 * a.kv_lora_rank + a.rope_dim)
                        : static_cast<double>(a.nope_dim + a.rope_dim + a.v_head_dim);
  }
  return qo_width;
}

// attn.cp of the `L` layers of attention kind `kind` (on `ranks` PEs): the other cp - 1 blocks,
// of `block_flops` and `block_bytes` each, exchanged by the ring variant of `c`.
void attention_cp_stage(const ModelSpec& m, const ParallelConfig& c, const Layout& lay, const Dims& x,
                        AttentionKind kind, double L, double ranks, double block_flops, double block_bytes,
                        double kv_elems, StepWork& out) {
  const char* name = kind == AttentionKind::full      ? "attn.cp"
                     : kind == AttentionKind::sliding ? "attn.cp.sliding"
                     : kind == AttentionKind::sparse  ? "attn.cp.sparse"
                                                      : "attn.cp.chunked";
  StageWork& s = comm_stage(out, name, StageBlock::attention, L, ranks);
  s.has_cp = true;
  s.cp = CpExchange{};
  CpExchange& e = s.cp;
  e.variant = c.cp_ring_variant;
  e.link = lay.cp;
  const double tq = x.T_rank;  // queries this rank owns
  const double o_width = x.mla ? static_cast<double>(m.mla.kv_lora_rank) : x.d;
  const double partial = tq * x.q_loc * o_width * 4.0 + 2 * tq * x.q_loc * 4.0;  // O, m, l in fp32
  switch (c.cp_ring_variant) {
    case CpRingVariant::kv:
      e.steps = c.cp - 1;
      e.step_flops = block_flops;
      e.step_bytes = block_bytes;
      e.msg_bytes = block_bytes;
      e.overlappable = true;
      break;
    case CpRingVariant::qoml:
      e.steps = c.cp - 1;
      if (x.decode) {
        e.msg_bytes = partial;  // Q need not move: every rank holds the same queries
      } else {
        e.step_flops = block_flops;
        e.step_bytes = block_bytes;
        e.msg_bytes = partial + tq * x.q_loc * (x.mla ? kv_elems : x.d) * x.a;
        e.overlappable = true;
      }
      break;
    case CpRingVariant::tree:
      e.steps = static_cast<std::int32_t>(std::ceil(std::log2(x.cp)));
      e.msg_bytes = partial;
      break;
  }
  s.flops = s.accounted_flops = e.steps * e.step_flops;
  s.hbm_bytes = s.accounted_hbm_bytes = e.steps * e.step_bytes;
  // Decode: the rotating KV blocks meet the same queries on every rank — all repeated work.
  s.redundant_flops = x.decode ? s.flops : 0.0;
  s.attention_kernel = e.step_flops > 0;
  s.kernels = std::max(1, e.steps);
}

// attn.core and attn.cp of the `count` layers of attention kind `kind` (docs/physics.md §3
// "Layer kinds"): a full layer reads every cached token; a sliding layer at most W of them, a
// chunked layer those of its own chunk of C.
void attention_core(const EvalContext& ctx, const ParallelConfig& c, const Layout& lay, const StepShape& sh,
                    const Dims& x, AttentionKind kind, double count, StepWork& out) {
  if (count <= 0) return;
  const ModelSpec& m = *ctx.model;
  const double L = count;
  const double ranks = x.cp * x.tp;
  const bool local = kind != AttentionKind::full;
  // A sparse layer's query reads its top_k keys: FLOPs as a window of k (min(q, k) keys at
  // position q), the keys gathered from the whole cache.
  const bool sparse = kind == AttentionKind::sparse;
  const double W = static_cast<double>(kind == AttentionKind::sliding  ? m.attention.sliding_window
                                       : kind == AttentionKind::sparse ? m.sparse.top_k
                                                                       : m.attention.chunk);
  // Cached tokens a decode query at context S reads: S, min(S, W), min(S, C) (a chunked
  // layer's bound: the query at a chunk's last position) or min(S, k).
  const auto bounded = [&](double S) { return local ? std::min(S, W) : S; };
  // attn.core: the local KV block -----------------------------------------------------------
  const double kv_elems = ctx.kv_elems_per_token_head;  // 2d, or kv_lora + rope (MLA)
  const double r_split = x.split ? x.r : 1.0;
  const double per_qk = per_query_key_flops(m, x);
  double rank_flops, kv_tokens_pe;  // all attention work of this PE; KV tokens it holds
  if (x.decode) {
    kv_tokens_pe = bounded(sh.kv_cached) / x.cp / r_split;  // S_loc
    // q queries per sequence (a verify step) over the same S_loc keys: the KV read once.
    rank_flops = per_qk * x.B * static_cast<double>(sh.queries) * x.q_loc * kv_tokens_pe * x.cp;
  } else if (!local) {
    const double c_tok = static_cast<double>(sh.chunk);
    kv_tokens_pe = (sh.kv_cached + c_tok) / x.cp / r_split;
    rank_flops = per_qk * x.B * x.q_loc * (c_tok / x.cp) * (sh.kv_cached + c_tok / 2) / r_split;
  } else {
    // The chunk's c queries at positions P..P+c: the keys they read (the window's W - 1
    // earlier, or the attention chunk's P mod C, and the chunk's own), and the (query, key)
    // pairs, the integral of min(q, W) (sliding) or q mod C (chunked) over [P, P + c].
    const double c_tok = static_cast<double>(sh.chunk), P = sh.kv_cached;
    const double held = kind == AttentionKind::sliding ? std::min(P, W) : sparse ? P : std::fmod(P, W);
    kv_tokens_pe = (held + c_tok) / x.cp / r_split;
    const auto area = [&](double q) {
      if (kind != AttentionKind::chunked) return q <= W ? q * q / 2 : W * W / 2 + (q - W) * W;
      const double whole = std::floor(q / W), rest = q - whole * W;
      return whole * W * W / 2 + rest * rest / 2;
    };
    rank_flops = per_qk * x.B * x.q_loc * (area(P + c_tok) - area(P)) / x.cp / r_split;
  }
  // Prefill MLA materialises per-head K and V: the cache read is the latent, as in decode.
  double block_bytes = x.B * kv_tokens_pe * kv_elems * x.k * x.n_kv;
  if (sh.mixed_batch > 0) {
    // A mixed iteration (docs/physics.md §12): the decode sequences' attention beside the
    // chunk's, each at its own context, MLA's decode part absorbed. Serving runs it at cp = 1.
    const double Bd = static_cast<double>(sh.mixed_batch);
    double per_qk_dec = 4 * x.d;
    if (x.mla)
      per_qk_dec = 2.0 * static_cast<double>(m.mla.kv_lora_rank + m.mla.rope_dim) +
                   2.0 * static_cast<double>(m.mla.kv_lora_rank);
    const double S_loc = bounded(sh.mixed_context) / x.cp / r_split;
    rank_flops += per_qk_dec * Bd * x.q_loc * S_loc * x.cp;
    block_bytes += Bd * S_loc * kv_elems * x.k * x.n_kv;
  }
  const double block_flops = rank_flops / x.cp;
  const double qo_width = query_output_width(m, x);
  const double qo_bytes = x.T_rank * x.q_loc * qo_width * x.a;
  {
    const char* name = kind == AttentionKind::full      ? "attn.core"
                       : kind == AttentionKind::sliding ? "attn.core.sliding"
                       : kind == AttentionKind::sparse  ? "attn.core.sparse"
                                                        : "attn.core.chunked";
    StageWork& s = compute_stage(out, name, StageBlock::attention, WeightPart::other, L, ranks, block_flops,
                                 block_bytes + qo_bytes, block_flops, 2);
    s.attention_kernel = true;
    s.attn_queries = x.decode ? static_cast<float>(sh.queries) : static_cast<float>(sh.chunk);
  }

  // attn.cp: the other cp - 1 blocks (docs/physics.md §5) ----------------------------------
  if (c.cp > 1) attention_cp_stage(m, c, lay, x, kind, L, ranks, block_flops, block_bytes, kv_elems, out);
}

// DeepSeek sparse attention's lightning indexer on the `count` sparse layers (docs/physics.md §3
// "Sparse attention"): its projections, replicated on the TP ranks as DeepSeek's inference code
// runs them, and the scores of every cached token — h_I heads of d_I, a ReLU and a weighted sum
// per (query, key) pair — from FP8 index keys with one fp32 scale, split over the CP ranks with
// the cache. Picking the top k of the scores is not counted.
void indexer_stages(const EvalContext& ctx, const StepShape& sh, const Dims& x, double count, StepWork& out) {
  if (count <= 0) return;
  const ModelSpec& m = *ctx.model;
  const double ih = static_cast<double>(m.sparse.index_heads),
               id = static_cast<double>(m.sparse.index_head_dim);
  const double q_in = x.mla && m.mla.q_lora_rank > 0 ? static_cast<double>(m.mla.q_lora_rank) : x.H;
  const double ranks = x.cp * x.tp;
  const double repeat = x.tp * (x.decode ? x.cp : 1.0);  // replicated on TP; decode repeats on CP
  {
    const double n_out = ih * id + id + ih;
    const double flops = 2 * x.T_rank * (q_in * ih * id + x.H * (id + ih));
    const double bytes = indexer_params(m) * x.w_attn + x.T_rank * (x.H + q_in + n_out) * x.a;
    StageWork& s = compute_stage(out, "attn.index_proj", StageBlock::attention, WeightPart::attention, count,
                                 ranks, flops, bytes, flops / repeat, 2);
    s.gemm = {x.T_rank, n_out, x.H};
  }
  const double key_bytes = index_key_bytes(m);
  double pairs, keys;  // (query, key) pairs this PE scores; index keys it reads
  if (x.decode) {
    keys = x.B * sh.kv_cached / x.cp;
    pairs = keys * static_cast<double>(sh.queries);
  } else {
    const double c_tok = static_cast<double>(sh.chunk);
    keys = x.B * (sh.kv_cached + c_tok) / x.cp;
    pairs = x.B * (c_tok / x.cp) * (sh.kv_cached + c_tok / 2);
  }
  if (sh.mixed_batch > 0) {
    const double mixed = static_cast<double>(sh.mixed_batch) * sh.mixed_context / x.cp;
    keys += mixed;
    pairs += mixed;
  }
  const double flops = (2 * ih * id + 2 * ih) * pairs;
  const double bytes = keys * key_bytes + x.T_rank * ih * id * x.a;
  StageWork& s = compute_stage(out, "attn.indexer", StageBlock::attention, WeightPart::other, count, ranks,
                               flops, bytes, flops / x.tp, 2);
  s.attention_kernel = true;
  s.attn_queries = x.decode ? static_cast<float>(sh.queries) : static_cast<float>(sh.chunk);
}

// attn.qkv of the `A` softmax-attention layers on the path: MLA's down- and up-projections
// (decode absorbs W_UK into the query), or the Q/K/V projection (gated attention: the query
// projection also yields each head's output gate).
void qkv_stage(const ModelSpec& m, const Dims& x, double A, StepWork& out) {
  const double ranks = x.cp * x.tp;
  // In decode every CP rank repeats the projections of the same T tokens.
  const double proj_share = x.decode ? x.cp : 1.0;
  if (x.mla) {
    const auto& a = m.mla;
    const double lora_q = static_cast<double>(a.q_lora_rank), lora_kv = static_cast<double>(a.kv_lora_rank);
    const double rope = static_cast<double>(a.rope_dim), nope = static_cast<double>(a.nope_dim);
    const double vdim = static_cast<double>(a.v_head_dim);
    // Down-projections replicated on the TP ranks; per-head parts split by heads. Decode
    // absorbs W_UK into the query (q_nope -> latent), prefill materialises K_nope and V.
    const double down = x.H * (lora_q + lora_kv + rope);
    const double q_up = (lora_q > 0 ? lora_q : x.H) * x.q_pe * (nope + rope);
    const double kv_up = x.decode ? x.q_pe * nope * lora_kv : x.q_pe * lora_kv * (nope + vdim);
    const double elems = (lora_q > 0 ? down : x.H * (lora_kv + rope)) + q_up;  // GEMM outputs x H
    const double replicated = lora_q > 0 ? down : x.H * (lora_kv + rope);
    const double flops = 2 * x.T_rank * (elems + kv_up);
    const double useful = 2 * x.T_rank * (replicated / x.tp + q_up + kv_up) / proj_share;
    const double bytes = (elems + x.q_pe * lora_kv * (x.decode ? nope : nope + vdim)) * x.w_attn +
                         x.T_rank * (x.H + x.q_pe * (nope + rope) + lora_kv + rope) * x.a;
    StageWork& s = compute_stage(out, "attn.qkv", StageBlock::attention, WeightPart::attention, A, ranks,
                                 flops, bytes, useful, 3);
    s.gemm = {x.T_rank, elems / x.H, x.H};
  } else {
    // Gated attention: the query projection also yields each head's output gate.
    const double q_width = x.q_pe * (m.attention.output_gate ? 2.0 : 1.0);
    const double n_out = x.d * (q_width + 2 * x.n_kv);
    const double flops = 2 * x.T_rank * x.H * n_out;
    // Unique work: the PE's query heads, and its KV heads once among the r sharing them.
    const double useful = 2 * x.T_rank * x.H * x.d * (q_width + 2 * x.n_kv / x.r) / proj_share;
    const double bytes = x.H * n_out * x.w_attn + x.T_rank * (x.H + n_out) * x.a;
    StageWork& s = compute_stage(out, "attn.qkv", StageBlock::attention, WeightPart::attention, A, ranks,
                                 flops, bytes, useful, 3);
    s.gemm = {x.T_rank, n_out, x.H};
  }
}

}  // namespace

// `reduce_layers`: the layers whose attention output is all-reduced on its own — L, less the
// layers of a parallel block whose FFN reduction carries the attention's partial sums.
void attention_block(const EvalContext& ctx, const ParallelConfig& c, const Layout& lay, const StepShape& sh,
                     const Dims& x, double reduce_layers, StepWork& out) {
  const ModelSpec& m = *ctx.model;
  const double L = sh.layers;
  // The layers of each mixer kind on the path (EvalContext::stage_mixers): the softmax-attention
  // kinds share the Q/K/V and output projections.
  // A whole step reads the model's counts in place; a pipeline stage counts its own.
  std::array<double, kAttentionKindCount> stage_mix;
  const bool whole = L >= static_cast<double>(m.layers) && sh.draft_fc_inputs == 0;
  if (sh.draft_fc_inputs > 0) {
    // A speculative draft head (docs/physics.md §12.8): its own layers, full attention.
    stage_mix.fill(0);
    stage_mix[static_cast<std::size_t>(AttentionKind::full)] = L;
  } else if (!whole) {
    stage_mix = ctx.stage_mixers(c.pp);
  }
  const std::array<double, kAttentionKindCount>& mix = whole ? ctx.mixer_layers : stage_mix;
  const auto of = [&mix](AttentionKind k) { return mix[static_cast<std::size_t>(k)]; };
  const double A = kv_cache_layers(mix);
  // Kinds other than full attention, only in models that name them (m.layer_types).
  const bool kinds = !m.layer_types.empty();
  const double ranks = x.cp * x.tp;
  // In decode every CP rank repeats the projections of the same T tokens.
  const double proj_share = x.decode ? x.cp : 1.0;

  if (A > 0) qkv_stage(m, x, A, out);

  // split (r > 1): all-gather Q inside the r-group, merge partial O (log-sum-exp) after.
  if (x.split && A > 0) {
    StageWork& s = comm_stage(out, "attn.kv_split", StageBlock::attention, A, ranks);
    const double head_width = x.mla ? static_cast<double>(m.mla.kv_lora_rank + m.mla.rope_dim) : x.d;
    add_comm(s,
             make_collective(CommKind::all_gather, x.r, x.T_rank * x.q_loc * head_width * x.a, lay.kv_group));
    const double o_width = x.mla ? static_cast<double>(m.mla.kv_lora_rank) : x.d;
    add_comm(s, make_collective(CommKind::reduce_scatter, x.r, x.T_rank * x.q_loc * (o_width + 2) * 4.0,
                                lay.kv_group));
  }

  // attn.core and attn.cp, for each attention kind the layers on the path have; the sparse
  // layers' indexer; the recurrent layers.
  attention_core(ctx, c, lay, sh, x, AttentionKind::full, of(AttentionKind::full), out);
  if (kinds) {
    attention_core(ctx, c, lay, sh, x, AttentionKind::sliding, of(AttentionKind::sliding), out);
    attention_core(ctx, c, lay, sh, x, AttentionKind::chunked, of(AttentionKind::chunked), out);
    indexer_stages(ctx, sh, x, of(AttentionKind::sparse), out);
    attention_core(ctx, c, lay, sh, x, AttentionKind::sparse, of(AttentionKind::sparse), out);
    recurrent_block(ctx, lay, sh, x, AttentionKind::linear, of(AttentionKind::linear), out);
    recurrent_block(ctx, lay, sh, x, AttentionKind::mamba, of(AttentionKind::mamba), out);
  }

  // attn.out ------------------------------------------------------------------------------
  if (A > 0) {
    const double in_width = x.q_pe * (x.mla ? static_cast<double>(m.mla.v_head_dim) : x.d);
    double flops = 2 * x.T_rank * in_width * x.H;
    double bytes = in_width * x.H * x.w_attn + x.T_rank * (in_width + x.H) * x.a;
    if (x.mla && x.decode) {  // un-absorb W_UV: latent -> v per head
      const double uv =
          x.q_pe * static_cast<double>(m.mla.kv_lora_rank) * static_cast<double>(m.mla.v_head_dim);
      flops += 2 * x.T_rank * uv;
      bytes += uv * x.w_attn;
    }
    StageWork& s = compute_stage(out, "attn.out", StageBlock::attention, WeightPart::attention, A, ranks,
                                 flops, bytes, flops / proj_share, 1);
    s.gemm = {x.T_rank, x.H, in_width};
  }
  // Every layer with a mixer reduces its output projection's partial sums.
  const double reduced = reduce_layers - of(AttentionKind::none);
  if (c.tp > 1 && reduced > 0) {
    StageWork& s = comm_stage(out, "attn.tp_reduce", StageBlock::attention, reduced, ranks);
    add_comm(s, make_collective(CommKind::all_reduce, x.tp, x.T_rank * x.H * x.a, lay.tp));
  }
}

}  // namespace tessera::step_internal
