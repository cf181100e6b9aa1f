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

#include "physics/attention_work.hpp"
#include "physics/model_weights.hpp"
#include "physics/stage_builders.hpp"
#include "tessera/physics/moe_load.hpp"
#include "tessera/physics/shards.hpp"

namespace tessera {

namespace {

using namespace step_internal;

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

// An MoE dispatch or combine all-to-all of `bytes` per rank over the EP group: DeepEP's normal
// kernels carry the routing (a token once per rank and node reached), the others every copy.
Collective moe_exchange(const ModelSpec& m, MoeA2a kernel, double ep, double bytes, const Layout& lay) {
  Collective ex = make_collective(CommKind::all_to_all, ep, bytes, lay.ep);
  if (kernel == MoeA2a::deepep_normal) {
    ex.route_top_k = static_cast<std::int32_t>(m.moe.top_k);
    ex.route_experts = static_cast<std::int32_t>(m.moe.experts);
  }
  return ex;
}

// The combine of a MoE block: the FFN group's all-reduce (same tokens), the all-to-all back (with
// the sharers' sum when ep < f), or the group's gathers and reduce-scatter or all-reduces.
struct MoeCombine {
  double T_f, count, ranks;
  bool differ, a2a;
  MoeA2a kernel;
};

void moe_combine(const EvalContext& ctx, const ParallelConfig& c, const Layout& lay, const Dims& x,
                 const MoeCombine& k, StepWork& out) {
  const double f = lay.ffn_group, T_f = k.T_f, K = static_cast<double>(ctx.model->moe.top_k);
  StageWork& s = comm_stage(out, "moe.combine", StageBlock::moe, k.count, k.ranks);
  if (!k.differ) {
    add_comm(s, make_collective(CommKind::all_reduce, f, T_f * x.H * x.a, lay.ffn));
  } else if (k.a2a) {
    add_comm(s, moe_exchange(*ctx.model, k.kernel, x.ep, T_f * K * x.H * x.a / x.ep, lay));
    // Experts TP-sliced over f / ep PEs (ep < f): the sharers of an expert sum their partial
    // outputs of the token slots their EP position received (SGLang's moe_tp = tp / ep_size)
    // before the combine returns them.
    if (f > x.ep)
      add_comm(s, make_collective(CommKind::all_reduce, f / x.ep, T_f * K * x.H * x.a / x.ep,
                                  expert_sharers(*ctx.machine, lay)));
  } else if (k.kernel == MoeA2a::gather_scatter && c.ffn_shard_scope == FfnShardScope::tp_cp_dp) {
    // All-gather the group's T_f tokens, reduce-scatter the outputs by rows: each rank gets its own
    // replica's rows (vLLM's all_gatherv / reduce_scatterv over the DP group); with tp > 1 the TP
    // ranks of a replica then gather its T_rank tokens' outputs.
    add_comm(s, make_collective(CommKind::all_gather, f, T_f * x.H * x.a, lay.ffn));
    add_comm(s, make_collective(CommKind::reduce_scatter, f, T_f * x.H * x.a, lay.ffn));
    add_comm(s, make_collective(CommKind::all_gather, x.tp, x.T_rank * x.H * x.a, lay.tp));
  } else if (k.kernel == MoeA2a::all_reduce_gather && c.ffn_shard_scope == FfnShardScope::tp_cp_dp) {
    // Each member's tokens into a zeroed buffer of the group's T_f, all-reduced (the gather), and
    // the outputs all-reduced back; each member keeps its slice.
    add_comm(s, make_collective(CommKind::all_reduce, f, T_f * x.H * x.a, lay.ffn));
    add_comm(s, make_collective(CommKind::all_reduce, f, T_f * x.H * x.a, lay.ffn));
  } else {
    add_group_exchange(s, c, lay, x, T_f);
  }
  if (s.comm_count == 0) --out.size;
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
  // Tokens that differ across the group reach experts spread over ep > 1 of its members by the
  // phase's kernel (docs/physics.md §5 "MoE all-to-all kernels"): an all-to-all, or the group's
  // gathers and reduce-scatter.
  const MoeA2a kernel = ctx.a2a_kernel(x.decode, static_cast<double>(c.ep) == f);
  const bool a2a =
      differ && c.ep > 1 && (kernel == MoeA2a::deepep_normal || kernel == MoeA2a::deepep_low_latency);

  {  // router: every rank scores the tokens it holds
    const double flops = 2 * x.T_rank * x.H * E;
    const double bytes = x.H * E * x.w + x.T_rank * (x.H + E) * x.a;
    const double useful = flops / (x.tp * (x.decode ? x.cp : 1.0));
    StageWork& s = compute_stage(out, "moe.router", StageBlock::moe, WeightPart::other, count, ranks, flops,
                                 bytes, useful, 2);
    s.gemm = {x.T_rank, E, x.H};
  }
  if (a2a) {  // the payload in its own format (post-quant dispatch); combine stays in a
    StageWork& s = comm_stage(out, "moe.dispatch", StageBlock::moe, count, ranks);
    add_comm(s, moe_exchange(m, kernel, x.ep, T_f * K * x.H * x.p / x.ep, lay));
  }
  {
    const double shard = f / x.ep;  // PEs sharing one expert
    const double expert_bytes = expert_params(m) * x.w_exp / shard;
    const double flops_per_slot = 2 * expert_matrix_params(m) / shard;
    // The router's skew and the deployment's balancer (docs/physics.md §4 "MoE load").
    const MoEBalance balance{m.moe.load_cv, m.moe.eplb, m.moe.redundant_experts};
    const MoELoad worst = moe_most_loaded_rank(T_f, m.moe.experts, m.moe.top_k, c.ep, false, balance);
    const MoELoad avg = moe_most_loaded_rank(T_f, m.moe.experts, m.moe.top_k, c.ep, true, balance);
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
  moe_combine(ctx, c, lay, x, {T_f, count, ranks, differ, a2a, kernel}, out);
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

  const double moe_layers = m.has_moe ? std::max(0.0, sh.layers - sh.dense_layers - sh.ffn_free_layers) : 0.0;
  const double dense_layers = m.has_moe ? sh.dense_layers : sh.layers - sh.ffn_free_layers;
  // Parallel block: the layers whose FFN reduction also carries the attention's partial sums
  // have no attention all-reduce of their own (ffn.reduce / moe.combine is the merged one).
  const ReduceMerge merge = parallel_block_merge(m, c, sh.mode, workload.scope);
  const double merged = (merge.dense ? dense_layers : 0.0) + (merge.moe ? moe_layers : 0.0);
  attention_block(ctx, c, layout, sh, x, sh.layers - merged, out);
  if (workload.scope == Scope::attention) return;

  dense_ffn_block(ctx, c, layout, dense_layers, x, out);
  moe_block(ctx, c, layout, moe_layers, x, out);

  if (sh.draft_fc_inputs > 0) {
    // A draft head's input projection: f hidden states of each new token to one (docs/physics.md
    // §12.8), replicated on the TP ranks as the heads are served.
    const double K = sh.draft_fc_inputs * x.H;
    const double flops = 2 * x.T * K * x.H;
    const double bytes = K * x.H * x.w_attn + x.T * (K + x.H) * x.a;
    StageWork& s = compute_stage(out, "draft.fc", StageBlock::attention, WeightPart::attention, 1, x.tp,
                                 flops, bytes, flops / x.tp, 2);
    s.gemm = {x.T, x.H, K};
  }
  if (sh.hops > 0 && c.pp > 1) {
    StageWork& s = comm_stage(out, "pp.hop", StageBlock::pipeline, sh.hops, x.cp * x.tp);
    add_comm(s, make_collective(CommKind::p2p, 2, x.T_rank * x.H * x.a, layout.pp_hop));
  }
  // The last position of each sequence sampled in this step: the batch's (when lm_head), and
  // a mixed iteration's decode sequences.
  // A verify step (decode, q > 1) scores every one of its q positions.
  const double rows = (sh.lm_head ? x.B * (x.decode ? static_cast<double>(sh.queries) : 1.0) : 0.0) +
                      static_cast<double>(sh.mixed_batch);
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
