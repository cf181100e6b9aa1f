#pragma once
// The pieces one step's reference workload is built from (docs/physics.md §3-§8), shared by
// step_work.cpp and attention_work.cpp: the step's dimensions in the symbols of docs/physics.md §1
// (step_work.cpp lists them), and the appenders of a compute or communication stage to a
// StepWork. Internal to the physics, on the hot path of every configuration: inline, no
// allocation.
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "tessera/physics/step_work.hpp"

namespace tessera::step_internal {

// The dimensions of one step (build_step_work sets them from the context, the configuration and
// the step's shape).
struct Dims {
  double H, d, hq, hkv, g, B, T, T_rank, n_kv, r, q_loc, q_pe, tp, cp, dp, ep, a, w, k;
  double w_attn, w_ffn, w_exp, w_head, p;
  Mode mode;
  bool decode, split, mla;
};

inline Collective make_collective(CommKind kind, double ranks, double bytes, const LinkCost& link) {
  Collective c;
  c.kind = ranks > 1 || kind == CommKind::p2p ? kind : CommKind::none;
  c.ranks = static_cast<std::int32_t>(ranks);
  c.bytes = bytes;
  c.link = link;
  return c;
}

inline void add_comm(StageWork& s, const Collective& c) {
  if (c.kind == CommKind::none) return;
  s.comms[static_cast<std::size_t>(s.comm_count++)] = c;
}

// StepWork::push() with a cheaper reset: every field set to its default one by one, which
// compiles to a few vector stores, where `= StageWork{}` (or a memcpy of a blank) becomes a
// `rep stos`/`rep movs` of ~300 bytes: ~15 % of a configuration's evaluation. Same contents,
// field for field (the static_assert asks whoever adds a field to reset it here too).
inline StageWork& next_stage(StepWork& out) {
  static_assert(sizeof(StageWork) == 712, "StageWork changed: reset the new field in next_stage()");
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
inline StageWork& compute_stage(StepWork& out, const char* name, StageBlock block, WeightPart part,
                                double count, double ranks, double flops, double bytes, double useful_flops,
                                int kernels) {
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

inline StageWork& comm_stage(StepWork& out, const char* name, StageBlock block, double count, double ranks) {
  StageWork& s = next_stage(out);
  s.name = name;
  s.block = block;
  s.count = count;
  s.ranks = ranks;
  s.kernels = 1;
  return s;
}

}  // namespace tessera::step_internal
