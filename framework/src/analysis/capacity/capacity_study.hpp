#pragma once
// The finalists of a serving study confirmed by simulation (docs/physics.md §12.6 "Capacity"):
// the analytical model ranks every configuration (analysis/serving/serve_study.hpp); the top K points
// are each searched for their capacity under the scenario's request stream and percentile SLOs
// (capacity_search.hpp), from the load the analytical model gives them, and re-ranked by
// output tokens/s/PE at that capacity. Each finalist is one work unit (core/executor.hpp),
// merged in the analytical order: the result is the same for any thread count and unit size.
// The disaggregated study's best pair is searched the same way (disagg_point_sim.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/capacity/capacity_search.hpp"
#include "analysis/capacity/simulated_point.hpp"
#include "analysis/serving/disagg_study.hpp"
#include "analysis/serving/serve_study.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "eval/session.hpp"
#include "scenario/schemas/request_spec.hpp"
#include "scenario/schemas/slo_spec.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

// A finalist whose simulated rank differs from its analytical one by more than this many places
// is flagged: the steady state misjudged it against its neighbours.
inline constexpr std::size_t kRankShiftFlag = 3;

struct Finalist {
  ServeRecord analytical;      // the serve study's record (config, point, PEs, tokens/s/PE)
  std::size_t study_rank = 0;  // 1 = the study's best (by its first objective)
  // 1 = the most analytical tokens/s/PE among the finalists (ties: the study's order): the
  // ranking the simulated one is compared with (the study's own when it ranks by tokens/s/PE)
  std::size_t analytical_rank = 0;
  std::size_t simulated_rank = 0;  // 1 = the most output tokens/s/PE at capacity
  ReplicaKv kv;                    // the simulated replica's KV (the first probe's)
  Capacity capacity;
  double tokens_per_s_per_pe = 0;  // output tokens/s / PEs at capacity (0: no load met the SLOs)
  double difference = 0;           // tokens_per_s_per_pe / the analytical one − 1
  bool moved = false;              // |simulated_rank − analytical_rank| > kRankShiftFlag
};

struct PairCapacity {
  DisaggPair pair;
  Capacity capacity;
  double tokens_per_s_per_pe = 0;  // output tokens/s / the pair's PEs at capacity
  double difference = 0;           // / the study's tokens/s/PE − 1
};

struct CapacityStudy {
  CapacitySettings settings;
  std::vector<SloTarget> targets;  // what every probe checks (capacity_targets): the probes' binding indices
  LoadKind kind = LoadKind::rate;
  std::size_t requested = 0;        // K
  std::vector<Finalist> finalists;  // by simulated rank (ties: the analytical rank)
  std::optional<PairCapacity> disaggregated;
  std::size_t moved() const {
    std::size_t n = 0;
    for (const Finalist& f : finalists) n += f.moved ? 1 : 0;
    return n;
  }
};

struct CapacityStudyOptions {
  std::size_t top = 20;  // K: finalists simulated, the best of the analytical ranking
  CapacitySettings settings;
  unsigned threads = 0;  // 0: every hardware thread
  // Finalists per work unit (0 or 1: one each), computed by `executor` (nullptr: a ThreadExecutor
  // of `threads`) and merged in the analytical order.
  std::size_t unit_size = 1;
  Executor* executor = nullptr;
  ProgressCallback on_progress;  // (finalists searched, finalists, "finalists")
};

// The targets a capacity probe checks: serving.slo's TTFT, TPOT and E2E targets as written, and
// a floor on tokens/s/user (min_tokens_per_s_per_user, on the mean) as a mean TPOT target of its
// inverse.
TESSERA_API std::vector<SloTarget> capacity_targets(const ServingSlo& slo);

// The analytical starting load of a point: its requests/s (an open loop), or its sequences in
// flight, batch × dp (a closed loop).
TESSERA_API double analytical_load(const ServeRecord& r, const StreamSpec& stream);

// The top K of `ranked` (the serve study's top, best first), searched and re-ranked. Throws
// InputError when a configuration's layout is not valid; polls cancellation between units.
TESSERA_API CapacityStudy confirm_finalists(const Session& session, const std::vector<ServeRecord>& ranked,
                                            const RequestsSpec& spec, const ServingSlo& slo,
                                            const CapacityStudyOptions& options);

// The capacity of the disaggregated pair `pair` (of the study on `prefill` and `decode`).
TESSERA_API PairCapacity pair_capacity(const Session& prefill, const Session& decode, const DisaggPair& pair,
                                       const RequestsSpec& spec, const ServingSlo& slo,
                                       const CapacitySettings& settings);

}  // namespace tessera::requests
