#pragma once
// Turning one stage's work into time (docs/physics.md §7): the one place where compute, memory and
// communication times are combined. Latency models choose the rates and whether the
// context-parallel exchange overlaps with attention.
#include "tessera/export.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/stage.hpp"

namespace tessera {

// The achievable rates a latency model assigns to one stage.
struct StageRates {
  double flop_rate = 0;           // FLOP/s for this stage's compute
  double hbm_bw = 0;              // B/s
  double comm_bw_efficiency = 1;  // fraction of link bandwidth collectives achieve
  double comm_extra_latency = 0;  // s added to every collective step (software)
  double overhead = 0;            // s added once per occurrence of a compute stage
};

enum class CpOverlap : std::uint8_t {
  overlapped,  // attn.cp = sum over steps of max(t_i, alpha + msg/beta)   (overlap model)
  serial,      // attn.cp = sum over steps of t_i + alpha + msg/beta        (roofline model)
};

// The number format a stage's FLOPs run in and its dense peak: attention kernels the
// attention format (ctx.attn_dtype), GEMMs their part's (DTypes::gemm; docs/physics.md §1).
TESSERA_API DType stage_math_dtype(const EvalContext& ctx, const StageWork& work);
TESSERA_API double stage_peak(const EvalContext& ctx, const StageWork& work);

// The rates of the reference models: dense peak (stage_peak), full HBM and link bandwidth, the
// machine's stage_overhead.
TESSERA_API StageRates peak_rates(const EvalContext& ctx, const StageWork& work);

// Fills `out` (name, counts, work, compute_s, memory_s, comm_s, visible_s, bound).
TESSERA_API void time_stage(const EvalContext& ctx, const StageWork& work, const StageRates& rates,
                            CpOverlap overlap, Stage& out);

}  // namespace tessera
