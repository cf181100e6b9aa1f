// The reference workload of one step (docs/physics.md §3-§8), per PE and per occurrence.
// docs/physics.md explains every line; the symbols follow docs/physics.md §1:
//   a, k     bytes per activation, KV element; p per MoE dispatch payload element
//   w        bytes per weight element of the stage's part: w_attn, w_ffn, w_exp, w_head; w (router)
//   T        new tokens per DP replica; T_rank = tokens one PE's attention handles
//            (decode: every CP rank holds the same T; prefill: T / cp, zig-zag balanced)
//   n_kv = max(1, h_kv/tp), r = max(1, tp/h_kv); split (r > 1): q_loc = g, S_loc /= r
#include "tessera/physics/step_work.hpp"

#include <algorithm>
#include <cmath>

#include "physics/model_weights.hpp"
#include "tessera/physics/moe_load.hpp"
#include "tessera/physics/shards.hpp"

namespace tessera {

namespace {

struct Dims {
  double H, d, hq, hkv, g, B, T, T_rank, n_kv, r, q_loc, q_pe, tp, cp, dp, ep, a, w, k;
  double w_attn, w_ffn, w_exp, w_head, p;
  Mode mode;
  bool decode, split, mla;
};

Collective make_collective(CommKind kind, double ranks, double bytes, const LinkCost& link) {
  Collective c;
  c.kind = ranks > 1 || kind == CommKind::p2p ? kind : CommKind::none;
  c.ranks = static_cast<std::int32_t>(ranks);
  c.bytes = bytes;
  c.link = link;
  return c;
}

void add_comm(StageWork& s, const Collective& c) {
  if (c.kind == CommKind::none) return;
  s.comms[static_cast<std::size_t>(s.comm_count++)] = c;
}

// StepWork::push() with a cheaper reset: every field set to its default one by one, which
// compiles to a few vector stores, where `= StageWork{}` (or a memcpy of a blank) becomes a
// `rep stos`/`rep movs` of ~300 bytes: ~15 % of a configuration's evaluation. Same contents,
// field for field (the static_assert asks whoever adds a field to reset it here too).
StageWork& next_stage(StepWork& out) {
  static_assert(sizeof(StageWork) == 688, "StageWork changed: reset the new field in next_stage()");
  StageWork& s = out.stages[static_cast<std::size_t>(out.size++)];
  s.name = "";
  s.block = StageBlock::attention;
  s.count = 0;
  s.ranks = 1;
  s.flops = 0;
  s.hbm_bytes = 0;
  s.redundant_flops = 0;
  s.accounted_flops = 0;
  s.accounted_hbm_bytes = 0;
  s.gemm = GemmShape{};
  s.attention_kernel = false;
  s.attn_queries = 0;
  s.part = WeightPart::other;
  s.kernels = 0;
  // comms[i >= comm_count] and cp (unless has_cp) are never read: set when added.
  s.comm_count = 0;
  s.has_cp = false;
  return s;
}

// A compute stage: its accounted work equals its work, and `useful` of it is unique.
StageWork& compute_stage(StepWork& out, const char* name, StageBlock block, WeightPart part, double count,
                         double ranks, double flops, double bytes, double useful_flops, int kernels) {
  StageWork& s = next_stage(out);
  s.part = part;
  s.name = name;
  s.block = block;
  s.count = count;
  s.ranks = ranks;
  s.flops = s.accounted_flops = flops;
  s.hbm_bytes = s.accounted_hbm_bytes = bytes;
  s.redundant_flops = std::max(0.0, flops - useful_flops);
  s.kernels = kernels;
  return s;
}

StageWork& comm_stage(StepWork& out, const char* name, StageBlock block, double count, double ranks) {
  StageWork& s = next_stage(out);
  s.name = name;
  s.block = block;
  s.count = count;
  s.ranks = ranks;
  s.kernels = 1;
  return s;
}

// ---- attention block (docs/physics.md §3) ----------------------------------------------

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
  const double W =
      static_cast<double>(kind == AttentionKind::sliding ? m.attention.sliding_window : m.attention.chunk);
  // Cached tokens a decode query at context S reads: S, min(S, W) or min(S, C) (a chunked
  // layer's bound: the query at a chunk's last position).
  const auto bounded = [&](double S) { return local ? std::min(S, W) : S; };
  // attn.core: the local KV block -----------------------------------------------------------
  const double kv_elems = ctx.kv_elems_per_token_head;  // 2d, or kv_lora + rope (MLA)
  const double r_split = x.split ? x.r : 1.0;
  // Per query per key: 4d FLOPs (QK^T and PV); MLA absorbed decode: 2(kv_lora+rope) + 2 kv_lora.
  double per_qk = 4 * x.d;
  if (x.mla) {
    const auto& a = m.mla;
    per_qk = x.decode ? 2.0 * static_cast<double>(a.kv_lora_rank + a.rope_dim) +
                            2.0 * static_cast<double>(a.kv_lora_rank)
                      : 2.0 * static_cast<double>(a.nope_dim + a.rope_dim) +
                            2.0 * static_cast<double>(a.v_head_dim);
  }
  double rank_flops, kv_tokens_pe;  // all attention work of this PE; KV tokens it holds
  if (x.decode) {
    kv_tokens_pe = bounded(sh.kv_cached) / x.cp / r_split;      // S_loc
    rank_flops = per_qk * x.B * x.q_loc * kv_tokens_pe * x.cp;  // over all cp blocks
  } else if (!local) {
    const double c_tok = static_cast<double>(sh.chunk);
    kv_tokens_pe = (sh.kv_cached + c_tok) / x.cp / r_split;
    rank_flops = per_qk * x.B * x.q_loc * (c_tok / x.cp) * (sh.kv_cached + c_tok / 2) / r_split;
  } else {
    // The chunk's c queries at positions P..P+c: the keys they read (the window's W - 1
    // earlier, or the attention chunk's P mod C, and the chunk's own), and the (query, key)
    // pairs, the integral of min(q, W) (sliding) or q mod C (chunked) over [P, P + c].
    const double c_tok = static_cast<double>(sh.chunk), P = sh.kv_cached;
    const double held = kind == AttentionKind::sliding ? std::min(P, W) : std::fmod(P, W);
    kv_tokens_pe = (held + c_tok) / x.cp / r_split;
    const auto area = [&](double q) {
      if (kind == AttentionKind::sliding) return q <= W ? q * q / 2 : W * W / 2 + (q - W) * W;
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
  // Q read and O written. MLA decode: the absorbed query is kv_lora + rope wide, the output
  // kv_lora wide (the latent); MLA prefill: per-head (nope + rope) queries and v outputs.
  double qo_width = 2 * x.d;
  if (x.mla) {
    const auto& a = m.mla;
    qo_width = x.decode ? static_cast<double>(2 * a.kv_lora_rank + a.rope_dim)
                        : static_cast<double>(a.nope_dim + a.rope_dim + a.v_head_dim);
  }
  const double qo_bytes = x.T_rank * x.q_loc * qo_width * x.a;
  {
    const char* name = kind == AttentionKind::full      ? "attn.core"
                       : kind == AttentionKind::sliding ? "attn.core.sliding"
                                                        : "attn.core.chunked";
    StageWork& s = compute_stage(out, name, StageBlock::attention, WeightPart::other, L, ranks, block_flops,
                                 block_bytes + qo_bytes, block_flops, 2);
    s.attention_kernel = true;
    s.attn_queries = x.decode ? 1.0f : static_cast<float>(sh.chunk);
  }

  // attn.cp: the other cp - 1 blocks (docs/physics.md §5) ----------------------------------
  if (c.cp > 1) {
    const char* name = kind == AttentionKind::full      ? "attn.cp"
                       : kind == AttentionKind::sliding ? "attn.cp.sliding"
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
}

// `reduce_layers`: the layers whose attention output is all-reduced on its own — L, less the
// layers of a parallel block whose FFN reduction carries the attention's partial sums.
void attention_block(const EvalContext& ctx, const ParallelConfig& c, const Layout& lay, const StepShape& sh,
                     const Dims& x, double reduce_layers, StepWork& out) {
  const ModelSpec& m = *ctx.model;
  const double L = sh.layers;
  const double ranks = x.cp * x.tp;
  // In decode every CP rank repeats the projections of the same T tokens.
  const double proj_share = x.decode ? x.cp : 1.0;

  // attn.qkv ------------------------------------------------------------------------------
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
    StageWork& s = compute_stage(out, "attn.qkv", StageBlock::attention, WeightPart::attention, L, ranks,
                                 flops, bytes, useful, 3);
    s.gemm = {x.T_rank, elems / x.H, x.H};
  } else {
    const double n_out = x.d * (x.q_pe + 2 * x.n_kv);
    const double flops = 2 * x.T_rank * x.H * n_out;
    // Unique work: the PE's query heads, and its KV heads once among the r sharing them.
    const double useful = 2 * x.T_rank * x.H * x.d * (x.q_pe + 2 * x.n_kv / x.r) / proj_share;
    const double bytes = x.H * n_out * x.w_attn + x.T_rank * (x.H + n_out) * x.a;
    StageWork& s = compute_stage(out, "attn.qkv", StageBlock::attention, WeightPart::attention, L, ranks,
                                 flops, bytes, useful, 3);
    s.gemm = {x.T_rank, n_out, x.H};
  }

  // split (r > 1): all-gather Q inside the r-group, merge partial O (log-sum-exp) after.
  if (x.split) {
    StageWork& s = comm_stage(out, "attn.kv_split", StageBlock::attention, L, ranks);
    const double head_width = x.mla ? static_cast<double>(m.mla.kv_lora_rank + m.mla.rope_dim) : x.d;
    add_comm(s,
             make_collective(CommKind::all_gather, x.r, x.T_rank * x.q_loc * head_width * x.a, lay.kv_group));
    const double o_width = x.mla ? static_cast<double>(m.mla.kv_lora_rank) : x.d;
    add_comm(s, make_collective(CommKind::reduce_scatter, x.r, x.T_rank * x.q_loc * (o_width + 2) * 4.0,
                                lay.kv_group));
  }

  // attn.core and attn.cp, for each attention kind the layers on the path have: the full
  // layers first (a pipeline stage holds as many of them as it can), then the local ones.
  const double full = std::min(L, static_cast<double>(m.layers) - ctx.sliding_layers - ctx.chunked_layers);
  const double sliding = std::min(L - full, ctx.sliding_layers);
  attention_core(ctx, c, lay, sh, x, AttentionKind::full, full, out);
  attention_core(ctx, c, lay, sh, x, AttentionKind::sliding, sliding, out);
  attention_core(ctx, c, lay, sh, x, AttentionKind::chunked, L - full - sliding, out);

  // attn.out ------------------------------------------------------------------------------
  {
    const double in_width = x.q_pe * (x.mla ? static_cast<double>(m.mla.v_head_dim) : x.d);
    double flops = 2 * x.T_rank * in_width * x.H;
    double bytes = in_width * x.H * x.w_attn + x.T_rank * (in_width + x.H) * x.a;
    if (x.mla && x.decode) {  // un-absorb W_UV: latent -> v per head
      const double uv =
          x.q_pe * static_cast<double>(m.mla.kv_lora_rank) * static_cast<double>(m.mla.v_head_dim);
      flops += 2 * x.T_rank * uv;
      bytes += uv * x.w_attn;
    }
    StageWork& s = compute_stage(out, "attn.out", StageBlock::attention, WeightPart::attention, L, ranks,
                                 flops, bytes, flops / proj_share, 1);
    s.gemm = {x.T_rank, x.H, in_width};
  }
  if (c.tp > 1 && reduce_layers > 0) {
    StageWork& s = comm_stage(out, "attn.tp_reduce", StageBlock::attention, reduce_layers, ranks);
    add_comm(s, make_collective(CommKind::all_reduce, x.tp, x.T_rank * x.H * x.a, lay.tp));
  }
}

// ---- FFN / MoE block (docs/physics.md §4) ------------------------------------------------

// Whether the FFN shard group's members hold different tokens (docs/physics.md §4).
bool ffn_tokens_differ(const ParallelConfig& c, bool decode) {
  switch (c.ffn_shard_scope) {
    case FfnShardScope::tp:
      return false;
    case FfnShardScope::tp_cp:
      return !decode && c.cp > 1;
    case FfnShardScope::tp_cp_dp:
      return c.dp > 1 || (!decode && c.cp > 1);
  }
  return false;
}

// Tokens the FFN shard group processes together, and whether its members hold different tokens.
void ffn_tokens(const ParallelConfig& c, const Dims& x, double& T_f, bool& tokens_differ) {
  tokens_differ = ffn_tokens_differ(c, x.decode);
  T_f = ffn_group_tokens(c, x.mode, x.T);
}

// The FFN-group gathers and reduce-scatter when members hold different tokens.
void add_group_exchange(StageWork& s, const ParallelConfig& c, const Layout& lay, const Dims& x, double T_f) {
  const double f = lay.ffn_group;
  if (c.ffn_shard_scope == FfnShardScope::tp_cp) {
    // Prefill TP+CP: the cp ranks all-gather their tokens, then reduce-scatter over f.
    add_comm(s, make_collective(CommKind::all_gather, x.cp, x.T * x.H * x.a, lay.cp));
    add_comm(s, make_collective(CommKind::reduce_scatter, f, x.T * x.H * x.a, lay.ffn));
    return;
  }
  // TP+CP+DP: all-gather over the group, reduce-scatter over f, then the all-gather that
  // gives each rank back its own tokens' outputs.
  add_comm(s, make_collective(CommKind::all_gather, f, T_f * x.H * x.a, lay.ffn));
  add_comm(s, make_collective(CommKind::reduce_scatter, f, T_f * x.H * x.a, lay.ffn));
  add_comm(s, make_collective(CommKind::all_gather, f, x.T_rank * x.H * x.a, lay.ffn));
}

void dense_ffn_block(const EvalContext& ctx, const ParallelConfig& c, const Layout& lay, double count,
                     const Dims& x, StepWork& out) {
  if (count <= 0) return;
  const ModelSpec& m = *ctx.model;
  const double f = lay.ffn_group, I = static_cast<double>(m.ffn);
  const double ranks = x.cp * x.tp;
  double T_f = 0;
  bool differ = false;
  ffn_tokens(c, x, T_f, differ);
  // Decode with TP scope: every CP rank repeats the FFN of the same tokens.
  const double share = (x.decode && c.ffn_shard_scope == FfnShardScope::tp) ? x.cp : 1.0;
  const double up_width = (m.ffn_kind == FfnKind::gated ? 2 * I : I) / f;
  {
    const double flops = 2 * T_f * x.H * up_width;
    const double bytes = x.H * up_width * x.w_ffn + T_f * (x.H + up_width) * x.a;
    StageWork& s = compute_stage(out, "ffn.up", StageBlock::ffn, WeightPart::ffn, count, ranks, flops, bytes,
                                 flops / share, 2);
    s.gemm = {T_f, up_width, x.H};
  }
  {
    const double flops = 2 * T_f * (I / f) * x.H;
    const double bytes = (I / f) * x.H * x.w_ffn + T_f * (I / f + x.H) * x.a;
    StageWork& s = compute_stage(out, "ffn.down", StageBlock::ffn, WeightPart::ffn, count, ranks, flops,
                                 bytes, flops / share, 1);
    s.gemm = {T_f, x.H, I / f};
  }
  StageWork& s = comm_stage(out, "ffn.reduce", StageBlock::ffn, count, ranks);
  if (!differ) {
    add_comm(s, make_collective(CommKind::all_reduce, f, T_f * x.H * x.a, lay.ffn));
  } else {
    add_group_exchange(s, c, lay, x, T_f);
  }
  if (s.comm_count == 0) --out.size;  // f = 1: nothing to reduce
}

void moe_block(const EvalContext& ctx, const ParallelConfig& c, const Layout& lay, double count,
               const Dims& x, StepWork& out) {
  if (count <= 0) return;
  const ModelSpec& m = *ctx.model;
  const double f = lay.ffn_group, E = static_cast<double>(m.moe.experts),
               K = static_cast<double>(m.moe.top_k);
  const double Ie = static_cast<double>(m.moe.expert_ffn);
  const double ranks = x.cp * x.tp;
  double T_f = 0;
  bool differ = false;
  ffn_tokens(c, x, T_f, differ);
  const double share = (x.decode && c.ffn_shard_scope == FfnShardScope::tp) ? x.cp : 1.0;

  {  // router: every rank scores the tokens it holds
    const double flops = 2 * x.T_rank * x.H * E;
    const double bytes = x.H * E * x.w + x.T_rank * (x.H + E) * x.a;
    const double useful = flops / (x.tp * (x.decode ? x.cp : 1.0));
    StageWork& s = compute_stage(out, "moe.router", StageBlock::moe, WeightPart::other, count, ranks, flops,
                                 bytes, useful, 2);
    s.gemm = {x.T_rank, E, x.H};
  }
  if (differ && c.ep > 1) {  // the payload in its own format (post-quant dispatch); combine stays in a
    StageWork& s = comm_stage(out, "moe.dispatch", StageBlock::moe, count, ranks);
    add_comm(s, make_collective(CommKind::all_to_all, x.ep, T_f * K * x.H * x.p / x.ep, lay.ep));
  }
  {
    const double shard = f / x.ep;  // PEs sharing one expert
    const double expert_bytes = expert_params(m) * x.w_exp / shard;
    const double flops_per_slot = 2 * expert_matrix_params(m) / shard;
    const MoELoad worst = moe_most_loaded_rank(T_f, m.moe.experts, m.moe.top_k, c.ep, false);
    const MoELoad avg = moe_most_loaded_rank(T_f, m.moe.experts, m.moe.top_k, c.ep, true);
    const double width = (m.ffn_kind == FfnKind::gated ? 3 : 2) * Ie / shard;
    // A routed token is read in the dispatch payload's format (p), written back in a.
    StageWork& s = compute_stage(
        out, "moe.experts", StageBlock::moe, WeightPart::experts, count, ranks,
        worst.token_slots * flops_per_slot,
        worst.distinct_experts * expert_bytes + worst.token_slots * (x.H * x.p + (x.H + width) * x.a), 0, 3);
    s.accounted_flops = avg.token_slots * flops_per_slot;
    s.accounted_hbm_bytes =
        avg.distinct_experts * expert_bytes + avg.token_slots * (x.H * x.p + (x.H + width) * x.a);
    s.redundant_flops = s.accounted_flops * (1 - 1 / share);
    const double per_expert = worst.distinct_experts > 0 ? worst.token_slots / worst.distinct_experts : 0;
    s.gemm = {per_expert, width, x.H};
  }
  if (m.moe.shared_experts > 0) {
    const double Es = static_cast<double>(m.moe.shared_experts);
    const double flops = 2 * T_f * Es * expert_matrix_params(m) / f;
    const double bytes = Es * expert_params(m) * x.w_exp / f + T_f * 2 * x.H * x.a;
    StageWork& s = compute_stage(out, "moe.shared", StageBlock::moe, WeightPart::shared_experts, count, ranks,
                                 flops, bytes, flops / share, 3);
    s.gemm = {T_f, Es * (m.ffn_kind == FfnKind::gated ? 3 : 2) * Ie / f, x.H};
  }
  StageWork& s = comm_stage(out, "moe.combine", StageBlock::moe, count, ranks);
  if (!differ) {
    add_comm(s, make_collective(CommKind::all_reduce, f, T_f * x.H * x.a, lay.ffn));
  } else if (c.ep > 1) {
    add_comm(s, make_collective(CommKind::all_to_all, x.ep, T_f * K * x.H * x.a / x.ep, lay.ep));
    // Experts TP-sliced over f / ep PEs (ep < f): the sharers of an expert sum their partial
    // outputs of the token slots their EP position received (SGLang's moe_tp = tp / ep_size)
    // before the combine returns them.
    if (f > x.ep)
      add_comm(s, make_collective(CommKind::all_reduce, f / x.ep, T_f * K * x.H * x.a / x.ep,
                                  expert_sharers(*ctx.machine, lay)));
  } else {
    add_group_exchange(s, c, lay, x, T_f);
  }
  if (s.comm_count == 0) --out.size;
}

}  // namespace

ReduceMerge parallel_block_merge(const ModelSpec& m, const ParallelConfig& c, Mode mode, Scope scope) {
  ReduceMerge r;
  if (!m.parallel_block || scope == Scope::attention || c.tp <= 1) return r;
  // The dense FFN's reduction — an all-reduce over f, or the reduce-scatter over f of the
  // gathered tokens — sums over a group that contains the TP group: the attention's partial
  // sums can be added into its input. So can moe.combine's, except when it is the all-to-all
  // that returns routed tokens (tokens differ across the group and ep > 1), which sums nothing
  // across the TP group.
  r.dense = true;
  r.moe = !(ffn_tokens_differ(c, mode == Mode::decode) && c.ep > 1);
  return r;
}

void build_step_work(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                     const Layout& layout, const StepShape& sh, StepWork& out) {
  out.size = 0;
  const ModelSpec& m = *ctx.model;
  Dims x{};
  x.mode = sh.mode;
  x.decode = sh.mode == Mode::decode;
  x.mla = m.has_mla;
  x.H = static_cast<double>(m.hidden);
  x.d = static_cast<double>(m.head_dim);
  x.hq = static_cast<double>(m.heads);
  x.hkv = static_cast<double>(ctx.kv_heads_eff);
  x.g = x.hq / x.hkv;
  x.tp = c.tp;
  x.cp = c.cp;
  x.dp = c.dp;
  x.ep = c.ep;
  x.B = static_cast<double>(sh.batch);
  x.T = static_cast<double>(sh.tokens);
  x.T_rank = rank_tokens(c, sh.mode, x.T);
  x.n_kv = std::max(1.0, x.hkv / x.tp);
  x.r = std::max(1.0, x.tp / x.hkv);
  x.q_pe = x.hq / x.tp;
  x.split = c.kv_shard_mode == KvShardMode::split && x.r > 1;
  x.q_loc = x.split ? x.g : x.q_pe;
  x.a = ctx.act_bytes;
  x.w = ctx.weight_bytes;
  x.w_attn = ctx.w_of(WeightPart::attention);
  x.w_ffn = ctx.w_of(WeightPart::ffn);
  x.w_exp = ctx.w_of(WeightPart::experts);
  x.w_head = ctx.w_of(WeightPart::lm_head);
  x.p = ctx.dispatch_bytes;
  x.k = ctx.kv_bytes;
  out.tokens = x.T;

  const double moe_layers = m.has_moe ? std::max(0.0, sh.layers - sh.dense_layers) : 0.0;
  const double dense_layers = m.has_moe ? sh.dense_layers : sh.layers;
  // Parallel block: the layers whose FFN reduction also carries the attention's partial sums
  // have no attention all-reduce of their own (ffn.reduce / moe.combine is the merged one).
  const ReduceMerge merge = parallel_block_merge(m, c, sh.mode, workload.scope);
  const double merged = (merge.dense ? dense_layers : 0.0) + (merge.moe ? moe_layers : 0.0);
  attention_block(ctx, c, layout, sh, x, sh.layers - merged, out);
  if (workload.scope == Scope::attention) return;

  dense_ffn_block(ctx, c, layout, dense_layers, x, out);
  moe_block(ctx, c, layout, moe_layers, x, out);

  if (sh.hops > 0 && c.pp > 1) {
    StageWork& s = comm_stage(out, "pp.hop", StageBlock::pipeline, sh.hops, x.cp * x.tp);
    add_comm(s, make_collective(CommKind::p2p, 2, x.T_rank * x.H * x.a, layout.pp_hop));
  }
  // The last position of each sequence sampled in this step: the batch's (when lm_head), and
  // a mixed iteration's decode sequences.
  const double rows = (sh.lm_head ? x.B : 0.0) + static_cast<double>(sh.mixed_batch);
  if (rows > 0) {
    const double V = static_cast<double>(m.vocab);
    const double flops = 2 * rows * x.H * V / x.tp;
    const double bytes = V * x.H * x.w_head / x.tp + rows * (x.H + V / x.tp) * x.a;
    StageWork& s =
        compute_stage(out, "lm_head", StageBlock::head, WeightPart::lm_head, 1, x.tp, flops, bytes, flops, 2);
    s.gemm = {rows, V / x.tp, x.H};
  }
}

}  // namespace tessera
