#pragma once
// Overlap of a tensor-parallel all-reduce with the GEMM that produces it (docs/physics.md §7,
// "Chunked GEMM + all-reduce overlap"). The all-reduce after `attn.out` (`attn.tp_reduce`), after
// `ffn.down` (`ffn.reduce`) and after the experts (`moe.combine`, when it is an all-reduce) sits
// on the critical path; split the producing GEMM into n token chunks and the all-reduce of chunk
// i runs while chunk i+1 is multiplied. Latency models opt in; nothing here allocates.
#include <cstdint>
#include <iterator>

#include "tessera/export.hpp"
#include "tessera/physics/eval_context.hpp"
#include "tessera/physics/stage_timing.hpp"
#include "tessera/physics/step_work.hpp"
#include "tessera/plugin/param_set.hpp"
#include "tessera/plugin/param_spec.hpp"
#include "tessera/stage.hpp"

namespace tessera {

enum class TpOverlap : std::uint8_t {
  none,     // the all-reduce follows its GEMM (today's model)
  chunked,  // GEMM(i+1) pipelined with all-reduce(i) over n token chunks
};

struct TpOverlapPolicy {
  TpOverlap mode = TpOverlap::none;
  std::int32_t chunks = 4;        // n (NeMo's userbuffers presets: num_splits 4)
  double min_chunk_tokens = 128;  // GEMM rows per chunk below which nothing is chunked (one tile)
  double chunk_cost_s = 0;        // per chunk: one more GEMM launch and the chunk's handshake
  double gemm_m_half = 0;         // GEMM rate ∝ M/(M + m_half) (calibrated); 0: rate independent of M
};

// The parameters tp_overlap_policy() reads, for a latency plugin's parameter table (declared
// once here, with the defaults above): {kTpOverlapParam, kTpOverlapChunksParam,
// kTpOverlapMinChunkTokensParam, ...the plugin's own}.
inline constexpr ParamChoice kTpOverlapChoices[] = {
    {"none",
     "every TP all-reduce follows its GEMM, fully exposed (default: no serving stack overlaps by default)"},
    {"chunked",
     "the GEMM before a TP all-reduce runs in token chunks, all-reduce(i) pipelined with GEMM(i+1)"},
};
inline constexpr ParamSpec kTpOverlapParam{
    .name = "tp_overlap",
    .type = ParamType::enumeration,
    .dimension = Dimension::none,
    .default_value = "none",
    .min = kNoMin,
    .max = kNoMax,
    .choices = kTpOverlapChoices,
    .choice_count = std::size(kTpOverlapChoices),
    .help = "overlap of the TP all-reduces (attn.tp_reduce, ffn.reduce, moe.combine) with their GEMM",
};
inline constexpr ParamSpec kTpOverlapChunksParam{
    .name = "tp_overlap_chunks",
    .type = ParamType::integer,
    .dimension = Dimension::none,
    .default_value = "4",
    .min = 2,
    .max = 64,
    .choices = nullptr,
    .choice_count = 0,
    .help = "token chunks n of a chunked GEMM + all-reduce (NeMo userbuffers presets: num_splits 4)",
};
inline constexpr ParamSpec kTpOverlapMinChunkTokensParam{
    .name = "tp_overlap_min_chunk_tokens",
    .type = ParamType::real,
    .dimension = Dimension::none,
    .default_value = "128",
    .min = 1,
    .max = 1e9,
    .choices = nullptr,
    .choice_count = 0,
    .help =
        "fewest GEMM rows per chunk for chunking (also never below the weight re-read ridge "
        "w*peak/(2*hbm_bw))",
};

// The policy from a latency plugin's validated parameters `tp_overlap` (none | chunked),
// `tp_overlap_chunks` and `tp_overlap_min_chunk_tokens`; a missing one keeps the default above.
TESSERA_API TpOverlapPolicy tp_overlap_policy(const ParamSet& p);

// The exposed time of an all-reduce pipelined with its producing GEMM over n chunks:
//   Δg + max(r, n·r − (n−1)·g) + n·c
// with g = t_gemm_chunked/n (one GEMM chunk), r the all-reduce of one chunk (M/n), Δg =
// t_gemm_chunked − t_gemm (what splitting costs the GEMM) and c the per-chunk cost.
TESSERA_API double chunked_exposed_s(double t_gemm, double t_gemm_chunked, double t_chunk_comm, int n,
                                     double chunk_cost_s);

// Fewest tokens per chunk for which the policy chunks a GEMM: max(min_chunk_tokens, the ridge
// w·flop_rate/(2·hbm_bw) at which a chunk that re-reads the weights stays compute-bound).
TESSERA_API double tp_overlap_min_tokens(const EvalContext& ctx, const TpOverlapPolicy& p,
                                         const StageRates& producer_rates);

// True for a communication stage whose only collective is an all-reduce (attn.tp_reduce,
// ffn.reduce, an all-reduce moe.combine).
TESSERA_API bool is_tp_allreduce_stage(const StageWork& w);

// `comm` (the all-reduce stage, already timed: visible_s = comm_s) right after `producer` (its
// GEMM stage, already timed with `producer_rates`): lowers comm.visible_s to the chunked exposed
// time when the policy chunks and chunking pays. comm_s is left as it is, so comm_s − visible_s
// is the time overlapped. No-op for any other pair of stages.
TESSERA_API void overlap_tp_allreduce(const EvalContext& ctx, const TpOverlapPolicy& p,
                                      const StageWork& producer_w, const Stage& producer,
                                      const StageRates& producer_rates, const StageWork& comm_w,
                                      const StageRates& comm_rates, Stage& comm);

}  // namespace tessera
