#pragma once
// The reference workload of one step (docs/physics.md §3-§8): for every stage, per PE and per
// occurrence, the FLOPs, HBM bytes and collectives the reference model says it does.
// Latency models turn this work into time; they differ only in how (overlap, roofline,
// efficiencies). Every formula lives in step_work.cpp and attention_work.cpp, written down in
// docs/physics.md.
#include <array>
#include <cstdint>

#include "tessera/export.hpp"
#include "tessera/parallel_config.hpp"
#include "tessera/physics/collectives.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/layout.hpp"
#include "tessera/stage.hpp"

namespace tessera {

// Per-PE GEMM shape: m tokens x n output features x k input features (0 if not a GEMM).
struct GemmShape {
  double m = 0, n = 0, k = 0;
};

// The context-parallel exchange of `attn.cp` (docs/physics.md §5).
struct CpExchange {
  CpRingVariant variant = CpRingVariant::kv;
  std::int32_t steps = 0;     // ring steps (cp - 1), or merge steps (ceil log2 cp) for tree
  double step_flops = 0;      // attention FLOPs computed per step on the block received
  double step_bytes = 0;      // HBM bytes of that computation
  double msg_bytes = 0;       // bytes sent per step
  bool overlappable = false;  // a step's compute may hide its message (kv; qoml in prefill)
  LinkCost link;
};

struct StageWork {
  const char* name = "";
  StageBlock block = StageBlock::attention;
  double count = 0;            // occurrences per step on the critical path
  double ranks = 1;            // PEs of one DP replica that execute it (for totals)
  double flops = 0;            // per PE per occurrence (for attn.cp: all steps together)
  double hbm_bytes = 0;        // per PE per occurrence
  double redundant_flops = 0;  // the part of accounted_flops another PE also computes
  // FLOPs and bytes of the average PE, for the step's totals. They differ from `flops` and
  // `hbm_bytes` (the slowest PE, which sets the time) only for MoE experts.
  double accounted_flops = 0;
  double accounted_hbm_bytes = 0;
  GemmShape gemm;  // for GEMM stages
  bool attention_kernel = false;
  WeightPart part = WeightPart::other;  // whose weights a GEMM stage multiplies by: its format and peak
  std::int32_t kernels = 0;             // kernel launches per occurrence
  // Attention kernels: new query tokens per sequence (1 in a decode step, the chunk in prefill;
  // a mixed iteration's chunk). Latency models read it to tell decode attention apart.
  float attn_queries = 0;
  std::array<Collective, 3> comms{};
  std::int32_t comm_count = 0;
  bool has_cp = false;
  CpExchange cp;
};

struct StepWork {
  static constexpr int kCapacity = 32;
  std::array<StageWork, kCapacity> stages{};
  int size = 0;
  double tokens = 0;  // new tokens per DP replica in this step (T)

  StageWork& push() {
    StageWork& s = stages[static_cast<std::size_t>(size++)];
    s = StageWork{};
    return s;
  }
};

// Which step to build.
struct StepShape {
  Mode mode = Mode::decode;
  std::int64_t batch = 1;   // sequences in this step (B, or B/pp for a pipeline micro-batch)
  std::int64_t tokens = 1;  // T: new tokens per replica (B q in decode, B*c in prefill)
  // Decode: the new tokens per sequence, q (1; k + 1 in a speculative verify step: every one
  // attends to the cached S and the ones before it, the KV read once, docs/physics.md §12.8).
  std::int64_t queries = 1;
  // A speculative draft head's input projection (EAGLE-3's fc over 3 hidden states, an MTP
  // module's eh_proj over 2): f, its inputs in units of the hidden size; 0: none.
  double draft_fc_inputs = 0;
  double kv_cached = 0;     // decode: S; prefill chunk j: P_j = j*c
  std::int64_t chunk = 0;   // prefill: c
  double layers = 0;        // layers on the path: L for a whole step, ceil(L/pp) per stage
  double dense_layers = 0;  // of which dense-FFN layers
  bool lm_head = true;      // include the lm_head stage
  double hops = 0;          // pipeline hops on the path: pp - 1 for a whole step
  // A mixed iteration of serving (mode prefill, StepKind::mixed_step): `mixed_batch` decode
  // sequences at `mixed_context` tokens cached ride along the prefill chunk. `tokens` counts
  // both (chunk + mixed_batch); attention times each part at its own context; the lm_head
  // samples the decode sequences (and the prompt when lm_head is set). 0: a plain step.
  std::int64_t mixed_batch = 0;
  double mixed_context = 0;
  double ffn_free_layers = 0;  // of `layers`, those without an FFN (ModelSpec::ffn_types' none)
};

// Tokens one PE's attention handles, T_rank, of T new tokens per DP replica: decode, every CP
// rank holds the same T; prefill, T / cp (zig-zag balanced).
inline double rank_tokens(const ParallelConfig& c, Mode mode, double T) {
  return mode == Mode::decode ? T : T / static_cast<double>(c.cp);
}

// Tokens the FFN shard group processes together, T_f (docs/physics.md §4): T_rank for scope TP,
// T for TP+CP, dp·T for TP+CP+DP.
inline double ffn_group_tokens(const ParallelConfig& c, Mode mode, double T) {
  switch (c.ffn_shard_scope) {
    case FfnShardScope::tp:
      return rank_tokens(c, mode, T);
    case FfnShardScope::tp_cp:
      return T;
    case FfnShardScope::tp_cp_dp:
      return static_cast<double>(c.dp) * T;
  }
  return T;
}

// Parallel block (ModelSpec::parallel_block): which FFN reductions also carry the attention
// output projection's partial sums, so that those layers have no `attn.tp_reduce` (one TP
// reduction per layer instead of two). `dense`: ffn.reduce carries them; `moe`: moe.combine
// does. Both false unless the model has the flag, tp > 1 and the scope is full.
struct ReduceMerge {
  bool dense = false;
  bool moe = false;
};
TESSERA_API ReduceMerge parallel_block_merge(const ModelSpec& m, const ParallelConfig& c, Mode mode,
                                             Scope scope);

// Fills `out` for configuration `c` laid out as `layout`, `shape` a step of `workload` (its
// scope: full, or the attention stages only). No allocation.
TESSERA_API void build_step_work(const EvalContext& ctx, const Workload& workload, const ParallelConfig& c,
                                 const Layout& layout, const StepShape& shape, StepWork& out);

// Time of a roofline: max(flops / peak, bytes / bw) with the given efficiencies.
inline double roofline_seconds(double flops, double bytes, double peak, double bw) {
  const double t_c = peak > 0 ? flops / peak : 0.0;
  const double t_m = bw > 0 ? bytes / bw : 0.0;
  return t_c > t_m ? t_c : t_m;
}

}  // namespace tessera
