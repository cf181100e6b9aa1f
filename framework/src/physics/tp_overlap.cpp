// Chunked GEMM + all-reduce overlap (docs/physics.md §7, "Chunked GEMM + all-reduce overlap").
#include "tessera/physics/tp_overlap.hpp"

#include <algorithm>

namespace tessera {

TpOverlapPolicy tp_overlap_policy(const ParamSet& p) {
  TpOverlapPolicy t;
  if (p.has("tp_overlap")) t.mode = p.text("tp_overlap") == "chunked" ? TpOverlap::chunked : TpOverlap::none;
  if (p.has("tp_overlap_chunks")) t.chunks = static_cast<std::int32_t>(p.integer("tp_overlap_chunks"));
  if (p.has("tp_overlap_min_chunk_tokens")) t.min_chunk_tokens = p.real("tp_overlap_min_chunk_tokens");
  return t;
}

double chunked_exposed_s(double t_gemm, double t_gemm_chunked, double t_chunk_comm, int n,
                         double chunk_cost_s) {
  // Two-stage pipeline of n equal chunks (GEMM g, then all-reduce r, each all-reduce after its
  // own GEMM and after the previous all-reduce): makespan g + r + (n−1)·max(g, r). Beyond the
  // GEMM's own n·g that leaves max(r, n·r − (n−1)·g) exposed; the last chunk's r never hides.
  const double nn = static_cast<double>(n);
  const double g = t_gemm_chunked / nn;
  const double r = t_chunk_comm;
  return (t_gemm_chunked - t_gemm) + std::max(r, nn * r - (nn - 1) * g) + nn * chunk_cost_s;
}

double tp_overlap_min_tokens(const EvalContext& ctx, const TpOverlapPolicy& p, const StageRates& rates) {
  // A chunk of m rows re-reads the whole weight matrix (n·k·w bytes) for 2·m·n·k FLOPs: it stays
  // compute-bound while 2m/w >= flop_rate/hbm_bw.
  const double ridge = rates.hbm_bw > 0 ? ctx.weight_bytes * rates.flop_rate / (2 * rates.hbm_bw) : 0.0;
  return std::max(p.min_chunk_tokens, ridge);
}

bool is_tp_allreduce_stage(const StageWork& w) {
  return !w.has_cp && w.comm_count == 1 && w.comms[0].kind == CommKind::all_reduce && w.flops == 0 &&
         w.hbm_bytes == 0;
}

void overlap_tp_allreduce(const EvalContext& ctx, const TpOverlapPolicy& p, const StageWork& producer_w,
                          const Stage& producer, const StageRates& producer_rates, const StageWork& comm_w,
                          const StageRates& comm_rates, Stage& comm) {
  if (p.mode != TpOverlap::chunked || p.chunks < 2 || !is_tp_allreduce_stage(comm_w)) return;
  if (producer_w.gemm.m <= 0 || producer_w.has_cp || producer_w.comm_count > 0) return;
  const double n = static_cast<double>(p.chunks);
  const double m = producer_w.gemm.m;
  if (m / n < tp_overlap_min_tokens(ctx, p, producer_rates)) return;  // decode, short chunks: nothing hides
  // The GEMM whose output is reduced: all of attn.out and ffn.down; of an expert stage (up, gate
  // and down projections in one stage) only the down projection, I_e of its 3·I_e (gated) or
  // 2·I_e columns.
  const bool expert = producer_w.block == StageBlock::moe;
  const double share = expert ? (ctx.model->ffn_kind == FfnKind::gated ? 1.0 / 3.0 : 0.5) : 1.0;
  // Split into n chunks of m/n rows: each chunk re-reads the weights ((n−1) more reads of n·k·w;
  // for an expert stage that is one expert's matrices, a lower bound), and a rate that falls
  // with M (calibrated: ∝ M/(M + m_half)) makes the compute (m + n·m_half)/(m + m_half) longer.
  const double slow = p.gemm_m_half > 0 ? (m + n * p.gemm_m_half) / (m + p.gemm_m_half) : 1.0;
  const double reread = producer_rates.hbm_bw > 0 ? (n - 1) * producer_w.gemm.n * producer_w.gemm.k *
                                                        ctx.weight_bytes / producer_rates.hbm_bw
                                                  : 0.0;
  const double t_gemm = share * std::max(producer.compute_s, producer.memory_s);
  const double t_chunked = share * std::max(producer.compute_s * slow, producer.memory_s + reread);
  Collective chunk = comm_w.comms[0];
  chunk.bytes /= n;
  const double r = collective_cost(chunk, *ctx.machine,
                                   CommRates{comm_rates.comm_bw_efficiency, comm_rates.comm_extra_latency})
                       .seconds;
  const double exposed = chunked_exposed_s(t_gemm, t_chunked, r, p.chunks, p.chunk_cost_s);
  // A stack chunks only where it pays (and below the threshold it does not chunk at all).
  if (exposed < comm.visible_s) comm.visible_s = exposed;
}

}  // namespace tessera
