// latency/calibrated: achievable rates per stage, then the shared stage timing
// (tessera/physics/stage_timing.hpp) with the context-parallel exchange overlapped, as in
// `overlap`. See calibrated.hpp for the parameters and README.md for the formulas.
#include "calibrated.hpp"

#include <cstring>

#include <algorithm>

namespace tessera::plugins {

namespace {

double param_or(const ParamSet& p, std::string_view name, double fallback) {
  return p.has(name) ? p.real(name) : fallback;
}

// A kernel whose math runs in a format of 8 bits or fewer (fp8, int8, mxfp8, and the 4-bit
// nvfp4, mxfp4, int4) takes gemm_8bit_efficiency: README.md "Number formats".
bool eight_bit(DType math) { return dtype_bits(math) <= 8; }

// All-reduce + residual + RMSNorm fusion (TensorRT-LLM AllReduceFusionOp::RESIDUAL_RMS_NORM,
// flashinfer allreduce_fusion, used by vLLM and SGLang): the norm that opens the next block runs
// inside the all-reduce kernel. Tessera counts that norm among the kernels of the block's first
// stage (attn.qkv after the FFN's reduction, ffn.up / moe.router after attn.tp_reduce), so a fused
// reduction removes one kernel there. Only all-reduces of at most kFusionMaxTokens tokens fuse
// (vLLM PassConfig fi_allreduce_fusion_max_token_num = 16384), and a block's norm loses its kernel
// only if every reduction in front of it fuses (an all-to-all moe.combine does not).
constexpr double kFusionMaxTokens = 16384;

bool fusable(const EvalContext& ctx, const StageWork& w) {
  if (!is_tp_allreduce_stage(w)) return false;
  const double per_token = static_cast<double>(ctx.model->hidden) * ctx.act_bytes;
  return per_token > 0 && w.comms[0].bytes / per_token <= kFusionMaxTokens;
}

bool is_named(const StageWork& w, std::string_view name) { return name == w.name; }

}  // namespace

NormFusion norm_fusion(const EvalContext& ctx, const StepWork& work) {
  NormFusion f;
  bool attn_seen = false, ffn_seen = false;
  bool attn_ok = true, ffn_ok = true;
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    if (is_named(w, "attn.tp_reduce")) {
      attn_seen = true;
      attn_ok = attn_ok && fusable(ctx, w);
    } else if (is_named(w, "ffn.reduce") || is_named(w, "moe.combine")) {
      ffn_seen = true;
      ffn_ok = ffn_ok && fusable(ctx, w);
    }
  }
  f.ffn_block_norm = attn_seen && attn_ok;
  f.attn_block_norm = ffn_seen && ffn_ok;
  return f;
}

bool fused_norm(const NormFusion& f, const StageWork& w) {
  if (w.kernels < 2) return false;  // a stage whose only kernel is its GEMM holds no norm
  if (f.attn_block_norm && is_named(w, "attn.qkv")) return true;
  return f.ffn_block_norm && (is_named(w, "ffn.up") || is_named(w, "moe.router"));
}

FamilyEfficiency family_from_params(const ParamSet& p) {
  FamilyEfficiency f;
  f.gemm_efficiency = param_or(p, "gemm_efficiency", f.gemm_efficiency);
  f.gemm_m_half = param_or(p, "gemm_m_half", f.gemm_m_half);
  f.gemm_8bit_efficiency = param_or(p, "gemm_8bit_efficiency", f.gemm_8bit_efficiency);
  f.hbm_efficiency = param_or(p, "hbm_efficiency", f.hbm_efficiency);
  f.attention_efficiency = param_or(p, "attention_efficiency", f.attention_efficiency);
  f.kernel_overhead = param_or(p, "kernel_overhead", f.kernel_overhead);
  return f;
}

std::string family_name(const ParamSet& p) { return p.has("family") ? p.text("family") : std::string(); }

void CalibratedLatency::time_step(const EvalContext& ctx, const StepCall& step, StageList& out) const {
  const StepWork& work = step.work;
  // Decode sequences of the step: the batch of a decode step, the decode sequences riding along
  // a mixed serving iteration.
  const Mode mode = step.workload.mode;
  const std::int64_t seqs = mode == Mode::decode ? step.shape.batch : step.shape.mixed_batch;
  time_step_with(ctx, family_from_params(ctx.machine->efficiency), work, out, seqs,
                 step.kind == StepKind::prefill_chunk ? step.chunk_count : 1, mode);
}

void CalibratedLatency::time_step_with(const EvalContext& ctx, const FamilyEfficiency& fam,
                                       const StepWork& work, StageList& out, std::int64_t sequences,
                                       std::int64_t chunks, Mode mode) const {
  out.clear();
  double gpu_s = 0, host_s = 0;
  bool token_step = false;  // the step produces tokens (it runs the lm_head)
  TpOverlapPolicy tp = tp_overlap_;
  tp.chunk_cost_s = ctx.machine->stage_overhead + fam.kernel_overhead;  // one more GEMM kernel per chunk
  tp.gemm_m_half = fam.gemm_m_half;
  const NormFusion fusion = allreduce_norm_fusion_ ? norm_fusion(ctx, work) : NormFusion{};
  StageRates prev;
  const double gqa = ctx.kv_heads_eff > 0
                         ? static_cast<double>(ctx.model->heads) / static_cast<double>(ctx.kv_heads_eff)
                         : 1.0;
  for (int i = 0; i < work.size; ++i) {
    const StageWork& w = work.stages[static_cast<std::size_t>(i)];
    // The framework's layer recipe (kernels per stage); the RMSNorm that opens a block runs
    // inside the fused all-reduce before it: one kernel less.
    const int kernels =
        recipe_kernels(profile_.recipe, w, ctx.model->has_mla) - (fused_norm(fusion, w) ? 1 : 0);
    StageRates r;
    // The stage's own format (per-part GEMM formats, the attention format): docs/physics.md §1.
    const double low = eight_bit(stage_math_dtype(ctx, w)) ? fam.gemm_8bit_efficiency : 1.0;
    if (w.attention_kernel) {
      r.flop_rate = ctx.attn_peak * (fam.attention_efficiency * low);
    } else {
      // Small-M GEMMs use a fraction of the tensor cores: eff(M) = eff_max * M / (M + M_half).
      const double m = w.gemm.m;
      const double shape = m > 0 ? m / (m + fam.gemm_m_half) : 1.0;
      r.flop_rate = stage_peak(ctx, w) * (fam.gemm_efficiency * low) * shape;
    }
    r.hbm_bw = ctx.hbm_bw * fam.hbm_efficiency;
    if (w.attention_kernel && (w.attn_queries == 1.0f || (mode == Mode::decode && w.attn_queries > 1.0f)) &&
        !w.has_cp && std::strncmp(w.name, "attn.core", 9) == 0) {
      // Decode attention over the KV cache (docs/physics.md §7.5): the KV token-heads the PE
      // reads, the GQA ratio, the framework's KV page. Not the recurrent layers' state or the
      // indexer's keys, which are no KV pages (their bytes at the HBM efficiency). A verify
      // step's q queries per sequence (§12.8) are packed with the g heads into the MMA rows.
      const double per_token_head = ctx.kv_elems_per_token_head * ctx.kv_bytes;
      const double token_heads = per_token_head > 0 ? w.hbm_bytes / per_token_head : 0;
      const double rows =
          gqa * (mode == Mode::decode ? std::max(1.0, static_cast<double>(w.attn_queries)) : 1.0);
      const DecodeAttentionEfficiency d =
          decode_attention_efficiency(token_heads, rows, profile_.kv_block_tokens);
      r.hbm_bw *= d.bandwidth;
      r.flop_rate *= d.compute;
    }
    // Collectives: the machine's `collectives:` rates as in `overlap` (StageRates defaults).
    r.overhead = ctx.machine->stage_overhead + kernels * fam.kernel_overhead;
    Stage& s = out.push();
    time_stage(ctx, w, r, CpOverlap::overlapped, s);
    if (i > 0)
      overlap_tp_allreduce(ctx, tp, work.stages[static_cast<std::size_t>(i - 1)],
                           out.items[static_cast<std::size_t>(i - 1)], prev, w, r, s);
    prev = r;
    // The framework's cost of calling a collective (one per collective of the stage).
    const int calls = w.has_cp ? (w.cp.steps > 0 ? 1 : 0) : w.comm_count;
    if (calls > 0) s.call_overhead_s = profile_.collective_overhead;  // per call, for a model over ours
    if (calls > 0 && profile_.collective_overhead > 0) {
      const double extra = calls * profile_.collective_overhead;
      s.comm_s += extra;
      s.visible_s += extra;
      if (s.comm_s > std::max(s.compute_s, s.memory_s)) s.bound = Bound::comm;
    }
    gpu_s += w.count * s.visible_s;
    host_s += w.count * kernels * profile_.launch_overhead;
    if (w.block == StageBlock::head && w.flops > 0) token_step = true;
  }
  // One extra stage after the work stages (the evaluator's accounting reads only the first
  // work.size stages): the host launch time the GPU work does not hide — at least the first
  // launch — and the framework's per-step cost on steps that produce tokens. In prefill it
  // comes with the chunk that yields the first token (the last), so that every chunk before it
  // has the same stages (the evaluator averages chunks stage by stage).
  if (out.size >= StageList::kCapacity) return;
  if (!token_step && mode == Mode::prefill) return;
  Stage& o = out.push();
  o = Stage{};  // the list's slots are reused: clear what an earlier step left there
  o.name = "step.overhead";
  o.block = StageBlock::head;
  o.count = 1;
  const double exposed_launch = std::max(host_s - gpu_s, profile_.launch_overhead);
  // Per decode step + per decode sequence (sampling, logits processing, scheduling); per prefill
  // + per prefill chunk (one scheduler iteration each), on the chunk with the first token; the
  // decode sequences riding along a mixed iteration pay their per-sequence cost too.
  double step = 0;
  if (token_step) {
    step = static_cast<double>(std::max<std::int64_t>(sequences, 0)) * profile_.decode_seq_overhead;
    step += mode == Mode::decode
                ? profile_.decode_step_overhead
                : profile_.prefill_overhead + static_cast<double>(std::max<std::int64_t>(chunks, 1)) *
                                                  profile_.prefill_chunk_overhead;
  }
  o.visible_s = exposed_launch + step;
  o.bound = o.visible_s > 0 ? Bound::overhead : Bound::none;
}

}  // namespace tessera::plugins
