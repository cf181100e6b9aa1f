#pragma once
// What evaluating one configuration produces: the stages, the memory, and the totals of
// docs/physics.md §8-§9. Fixed-size, reused between configurations.
#include <array>

#include "tessera/serving_metrics.hpp"
#include "tessera/stage.hpp"

namespace tessera {

struct MemoryUsage {
  double weights_bytes = 0;  // per PE, most loaded pipeline stage
  double kv_bytes = 0;
  double transient_bytes = 0;
  double used_bytes = 0;
  double budget_bytes = 0;
  bool fits = false;
};

// One memory tier's share of a step (docs/physics.md §9 "Memory tiers").
struct TierUse {
  const char* name = kHbmTier;  // Stage::memory_tier
  double bytes_all_pes = 0;     // bytes all PEs read and wrote from it in the step
  double bandwidth = 0;         // B/s per PE (Stage::memory_tier_bw; HBM's: the machine's)
  double util = 0;              // bytes / (bandwidth * PEs * latency); 0 when bandwidth is 0
};

struct StepTotals {
  static constexpr int kMaxTiers = 8;    // tiers past the eighth are counted in the eighth
  double latency_s = 0;                  // decode step latency, or TTFT in prefill
  double throughput_tok_s = 0;           // decode dp*B/latency; prefill dp*B*S/TTFT
  double pipeline_throughput_tok_s = 0;  // pp > 1 and B >= pp (decode); else 0
  double flops_all_pes = 0;              // executed by all PEs in the step (dp included)
  double redundant_flops = 0;            // of which repeated work
  double hbm_bytes_all_pes = 0;          // bytes served by HBM (the default tier)
  double link_bytes_all_pes = 0;         // bytes put on links by all PEs
  double compute_util = 0;               // useful FLOPs / (peak * PEs * latency)
  double bw_util = 0;                    // HBM bytes / (hbm_bw * PEs * latency): HBM's tier only
  double efficiency = 0;                 // sqrt(compute_util * bw_util)
  double pes = 0;
  double tokens = 0;               // tokens produced (decode) or processed (prefill), all replicas
  bool prefill_pipelined = false;  // stages are per-chunk averages; TTFT uses the pipeline formula
  // Every tier the step's stages named, HBM first (always present), then in order of appearance.
  std::array<TierUse, kMaxTiers> tiers{};
  int tier_count = 0;
};

// What an objective is handed: the evaluated step (its stages as the latency model timed them,
// per-chunk averages in prefill), its totals and its memory. In a serving study (`tessera
// serve`) the step is the configuration's decode step at the batch and the mean context of the
// point, and `serving` its request-level metrics; nullptr in `run` and the other studies.
// `prefill`, in a serving study on a machine with an `energy:` block: the totals of one prompt's
// prefill on every replica (batch 1 per replica, ISL tokens, chunk = ISL), for the energy of a
// whole request (energy_per_token, cost_per_mtok); nullptr otherwise.
struct EvaluatedStep {
  const StageList& stages;
  const StepTotals& totals;
  const MemoryUsage& memory;
  const ServingMetrics* serving = nullptr;
  const StepTotals* prefill = nullptr;
};

}  // namespace tessera
