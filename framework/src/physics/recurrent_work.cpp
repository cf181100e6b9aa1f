// Gated DeltaNet and Mamba-2 layers of one step (physics/recurrent_work.hpp), per PE and per
// occurrence, in the symbols of docs/physics.md §1 and §3 "Recurrent layers".
#include "physics/recurrent_work.hpp"

#include "physics/mixer_shares.hpp"

namespace tessera::step_internal {

namespace {

// One kind's shapes per PE: the input projection's width, the convolution's channels, the
// output projection's input width, the state elements of one sequence, and the scan's FLOPs per
// token (decode's recurrent update, or prefill's chunked form).
struct RecurrentShape {
  double proj_out = 0, conv = 0, inner = 0, state = 0, scan_flops = 0;
  std::int64_t conv_kernel = 0;
  const char *proj, *core, *cp, *out;
};

// Gated DeltaNet (Yang et al. 2025, eq. 10; flash-linear-attention's chunk_gated_delta_rule):
// per value head, decode updates S (d_k x d_v) by the gated delta rule and reads it —
// decay d_k d_v, k^T S 2 d_k d_v, the rank-1 update 2 d_k d_v, S q 2 d_k d_v: 7 d_k d_v; prefill
// in chunks of C: the intra-chunk products (K K^T, the WY transform of k and v, Q K^T and its
// product with V) 2 C (3 d_k + 2 d_v), and the three state products 6 d_k d_v per token.
RecurrentShape linear_shape(const ModelSpec& m, const MixerShare& s, bool decode) {
  const auto& a = m.linear;
  const double dk = static_cast<double>(a.key_head_dim), dv = static_cast<double>(a.value_head_dim);
  const double C = static_cast<double>(a.chunk);
  RecurrentShape r{};
  r.proj_out = 2 * s.nk * dk + 2 * s.nv * dv + 2 * s.nv;  // q, k, v, z and the gates a, b
  r.conv = linear_conv_channels(m, s);
  r.inner = s.nv * dv;
  r.state = linear_state_elems(m, s);
  r.scan_flops = s.nv * (decode ? 7 * dk * dv : 2 * C * (3 * dk + 2 * dv) + 6 * dk * dv);
  r.conv_kernel = a.conv_kernel;
  r.proj = "linear.proj";
  r.core = "linear.scan";
  r.cp = "linear.cp";
  r.out = "linear.out";
  return r;
}

// Mamba-2's SSD (Dao & Gu 2024, §6): decode updates each head's P x N state — exp(dt A) h
// P N, dt x B^T 2 P N, h C 2 P N: 5 P N; prefill in chunks of Q: C B^T per group 2 Q N, its
// product with x per head 2 Q P, and the state in and out 4 P N per token.
RecurrentShape mamba_shape(const ModelSpec& m, const MixerShare& s, bool decode) {
  const auto& a = m.mamba;
  const double P = static_cast<double>(a.head_dim), N = static_cast<double>(a.state_size);
  const double Q = static_cast<double>(a.chunk);
  RecurrentShape r{};
  r.proj_out = 2 * s.nh * P + 2 * s.ng * N + s.nh;  // z, x, B, C, dt
  r.conv = mamba_conv_channels(m, s);
  r.inner = s.nh * P;
  r.state = mamba_state_elems(m, s);
  r.scan_flops = decode ? s.nh * 5 * P * N : s.ng * 2 * Q * N + s.nh * (2 * Q * P + 4 * P * N);
  r.conv_kernel = a.conv_kernel;
  r.proj = "mamba.in_proj";
  r.core = "mamba.scan";
  r.cp = "mamba.cp";
  r.out = "mamba.out_proj";
  return r;
}

}  // namespace

void recurrent_block(const EvalContext& ctx, const Layout& lay, const StepShape& sh, const Dims& x,
                     AttentionKind kind, double count, StepWork& out) {
  if (count <= 0) return;
  const ModelSpec& m = *ctx.model;
  const auto shape = [&](const MixerShare& s, bool decode) {
    return kind == AttentionKind::linear ? linear_shape(m, s, decode) : mamba_shape(m, s, decode);
  };
  // What this PE runs (heads split by TP, replicated past them), and the unique work: the whole
  // layer's heads split evenly over the tp ranks, once over the CP ranks in decode (every CP
  // rank repeats a decode step's tokens; the state is not split by context).
  const MixerShare share = mixer_share(m, x.tp), whole = mixer_share(m, 1);
  const RecurrentShape r = shape(share, x.decode), r1 = shape(whole, x.decode);
  // The decode form, for a decode step (r itself) or a mixed iteration's decode sequences.
  const RecurrentShape dec = x.decode ? r : shape(share, true), dec1 = x.decode ? r1 : shape(whole, true);
  const double unique = x.tp * (x.decode ? x.cp : 1.0);
  const double ranks = x.cp * x.tp;
  // Tokens scanned in decode form (a decode step's, a mixed iteration's decode sequences) and in
  // chunked form (a prompt chunk's); the sequences whose state the step reads and writes.
  const double mixed = static_cast<double>(sh.mixed_batch);
  const double t_dec = x.decode ? x.T_rank : mixed, t_pre = x.T_rank - t_dec;
  const double seqs = static_cast<double>(sh.batch) + (x.decode ? 0.0 : mixed);
  {
    const double flops = 2 * x.T_rank * x.H * r.proj_out;
    const double bytes = x.H * r.proj_out * x.w_attn + x.T_rank * (x.H + r.proj_out) * x.a;
    StageWork& s = compute_stage(out, r.proj, StageBlock::attention, WeightPart::attention, count, ranks,
                                 flops, bytes, 2 * x.T_rank * x.H * r1.proj_out / unique, 1);
    s.gemm = {x.T_rank, r.proj_out, x.H};
  }
  {
    // The convolution (2 K_c per channel and token) and the scan; the state of each sequence
    // read and written once per step, the inputs read and the output written.
    const double conv = 2 * static_cast<double>(r.conv_kernel);
    const double flops = t_dec * (dec.scan_flops + conv * r.conv) + t_pre * (r.scan_flops + conv * r.conv);
    const double useful =
        (t_dec * (dec1.scan_flops + conv * r1.conv) + t_pre * (r1.scan_flops + conv * r1.conv)) / unique;
    const double bytes = 2 * seqs * r.state * ctx.state_bytes + x.T_rank * (r.conv + 2 * r.inner) * x.a;
    StageWork& s = compute_stage(out, r.core, StageBlock::attention, WeightPart::other, count, ranks, flops,
                                 bytes, useful, 2);
    s.attention_kernel = true;
    s.attn_queries = x.decode ? static_cast<float>(sh.queries) : static_cast<float>(sh.chunk);
  }
  if (!x.decode && x.cp > 1) {
    // Prefill over CP ranks (LASP, Sun et al. 2024): each rank scans its T/cp tokens, then the
    // state is handed rank to rank, cp - 1 messages one after another.
    StageWork& s = comm_stage(out, r.cp, StageBlock::attention, count * (x.cp - 1), ranks);
    add_comm(s, make_collective(CommKind::p2p, 2, seqs * r.state * ctx.state_bytes, lay.cp));
  }
  {
    const double flops = 2 * x.T_rank * r.inner * x.H;
    const double bytes = r.inner * x.H * x.w_attn + x.T_rank * (r.inner + x.H) * x.a;
    StageWork& s = compute_stage(out, r.out, StageBlock::attention, WeightPart::attention, count, ranks,
                                 flops, bytes, 2 * x.T_rank * r1.inner * x.H / unique, 1);
    s.gemm = {x.T_rank, x.H, r.inner};
  }
}

}  // namespace tessera::step_internal
