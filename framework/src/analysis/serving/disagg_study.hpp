#pragma once
// Disaggregated serving (`serving.disaggregated`, docs/physics.md §12.4): a prefill pool of x
// instances of one configuration and a decode pool of y instances of another, rate-matched.
//
// 1. Pools: every valid configuration of the scenario's sweep within the PE budget is timed as
//    a prefill instance (each prefill batch b of serving.disaggregated.prefill_batch: the
//    prefill of b whole prompts, T_p; rate dp b / the period at the pipeline's pace) and as a decode instance
//    (each batch B of sweep.serving.batch: TPOT = the decode step at B and the mean context ISL + OSL / 2;
//    rate dp B / ((OSL - 1) TPOT)); a point whose KV does not fit is dropped.
// 2. Pareto: within each group of candidates of equal PEs and shape (tp, pp, cp, kv_shard_mode, and
//    the prefill batch; what the transfer and the link depend on), only those no other beats on rate and time
//    (prefill: rate vs T_p; decode: rate vs TPOT) are kept, and those whose time alone misses the SLO are
//    dropped. Exact: a dominated candidate never gives a better pair.
// 3. Pairing: every kept prefill x decode candidate, x, y = 1..max_replicas, x P_p + y P_d within
//    the budget: rate = min(x r_p, y r_d), tokens/s/PE = rate OSL / (x P_p + y P_d), TTFT = T_p +
//    the exposed KV transfer, TPOT the decode pool's. The best within the SLO (most tokens/s/PE;
//    ties: most tokens/s/user, then fewer PEs, then the order) and the frontier of tokens/s/PE
//    against tokens/s/user; the best is the frontier's point of most tokens/s/PE.
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/serving/serve_study.hpp"
#include "eval/session.hpp"
#include "physics/kv_transfer.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"

namespace tessera {

// One instance of a pool at one batch.
struct PoolCandidate {
  std::uint64_t key = 0;  // position in the pool's order (configurations, then batches)
  ParallelConfig config;
  std::int64_t batch = 0;  // prefill: prompts per prefill; decode: sequences in flight per replica
  std::int64_t pes = 0;    // of one instance (all its dp replicas)
  double time_s = 0;       // prefill: T_p, to the batch's first tokens; decode: TPOT
  // prefill: dp b / period, the period between two batches of a stream at the pipeline's pace
  // (T_p when pp = 1); decode: dp B / ((OSL - 1) TPOT). One instance, all its dp replicas; a
  // pair caps it by the link (DisaggPair::link_bound).
  double requests_per_s = 0;
};

struct DisaggPools {
  std::vector<PoolCandidate> prefill, decode;
  std::uint64_t configurations = 0;  // valid ones within the budget, each timed in both roles
  std::uint64_t prefill_points = 0, decode_points = 0;  // configurations x batches
  std::uint64_t prefill_kv_overflow = 0, decode_kv_overflow = 0;
  std::uint64_t non_finite = 0;  // points whose step time was not a positive finite number
  // configurations the scenario's framework cannot run in a disaggregated pool (disaggregated_pp)
  std::uint64_t stack_dropped = 0;
};

// What pairing needs (tests build it by hand).
struct PairingInputs {
  const ModelSpec* model = nullptr;
  const MachineSpec* machine = nullptr;  // both pools' when they share one; nullptr: two machines
  // Each pool's PEs at most (x P_p and y P_d; its machine's when the pools have machines of
  // their own); 0: no bound of its own (a shared machine bounds x P_p + y P_d).
  std::int64_t prefill_machine_pes = 0, decode_machine_pes = 0;
  ServingRequest request;
  ServingSlo slo;
  std::int64_t max_pes = 0;  // 0: no budget
  DisaggregationSpec spec;
};

struct DisaggPair {
  PoolCandidate prefill, decode;
  std::int64_t x = 0, y = 0;  // instances of each pool
  std::int64_t pes = 0;       // x P_p + y P_d
  int level = -1;  // the machine level of the link (levels[level]); -1: serving.disaggregated.transfer
  TransferLink link;
  KvTransfer transfer;
  double transfer_exposed_s = 0;  // what the TTFT sees of the transfer
  double ttft_s = 0, tpot_s = 0, e2e_s = 0;
  double requests_per_s = 0;   // min(x r_p, y r_d), each capped by the link
  bool prefill_bound = false;  // x r_p < y r_d
  // A pool's rate capped by its PEs' link: a prefill replica sends b prompts' KV per batch
  // (KvTransfer::send_time_s), a decode replica receives one request's per request
  // (receive_time_s).
  bool prefill_link_bound = false, decode_link_bound = false;
  double prefill_utilization = 0, decode_utilization = 0;  // rate / each pool's capacity (one is 1)
  double tokens_per_s = 0, tokens_per_s_per_pe = 0, tokens_per_s_per_user = 0;
};

struct DisaggCounts {
  std::uint64_t prefill_kept = 0, decode_kept = 0;  // after the Pareto filter and the SLO
  std::uint64_t pairs = 0;                          // kept prefill x kept decode x max_replicas^2
  std::uint64_t over_budget = 0, over_machine = 0, no_link = 0, slo_miss = 0, within_slo = 0;
};

struct DisaggResult {
  DisaggCounts counts;
  // most tokens/s/PE within the SLO (ties: most tokens/s/user, fewer PEs, then the order): a
  // frontier point, dominated by none
  std::optional<DisaggPair> best;
  std::vector<DisaggPair> frontier;  // tokens/s/PE vs tokens/s/user within the SLO, most tokens/s/user first
};

// The candidates of one pool Pareto-filtered per group of equal PEs, tp, pp, cp and kv_shard_mode
// (and batch when `by_batch`: the prefill pool, whose transfer carries its batch), and those
// whose time exceeds `time_limit` dropped (step 2 above). Order kept.
TESSERA_API std::vector<PoolCandidate> pareto_pool(const std::vector<PoolCandidate>& all, double time_limit,
                                                   bool by_batch = false);

// Every pair of `prefill` x `decode` candidates (step 3), as given: no filtering.
TESSERA_API DisaggResult pair_pools(const PairingInputs& in, const std::vector<PoolCandidate>& prefill,
                                    const std::vector<PoolCandidate>& decode);

// A pool instance's ranks as the KV transfer sees them (tp, pp, cp, kv_shard_mode).
TESSERA_API PoolShape shape_of(const ParallelConfig& c);

// One pair's metrics; false when no link joins the pools (no level holds x P_p + y P_d PEs
// and serving.disaggregated.transfer is absent). The caller checks the PE budget and the
// machine's size.
TESSERA_API bool evaluate_pair(const PairingInputs& in, const PoolCandidate& p, const PoolCandidate& d,
                               std::int64_t x, std::int64_t y, DisaggPair& out);
TESSERA_API bool pair_within_slo(const ServingSlo& slo, const DisaggPair& p);

// Step 1 over the session's sweep (mode serve) within `max_pes` (0: none).
TESSERA_API DisaggPools evaluate_pools(const Session& session, std::int64_t max_pes);
// Step 1 with each pool timed on its own session (serving.prefill_machine / decode_machine): the
// prefill pool from `prefill`'s grid and machine, the decode pool from `decode`'s. The same
// session twice is evaluate_pools(session). `configurations` counts both machines' valid ones.
TESSERA_API DisaggPools evaluate_pools(const Session& prefill, const Session& decode, std::int64_t max_pes);

// The whole study: pools, Pareto, pairing. `max_pes` as ServeStudyOptions::max_pes.
struct DisaggStudy {
  DisaggPools pools;
  DisaggResult result;
  std::int64_t max_pes = 0;
};
TESSERA_API DisaggStudy run_disagg_study(const Session& session, std::int64_t max_pes = -1);
// The study with the pools of two sessions (PoolSessions); their link is
// serving.disaggregated.transfer when the pools run on machines of their own (they share no
// machine level: ServingSpec::separate_machines).
TESSERA_API DisaggStudy run_disagg_study(const Session& prefill, const Session& decode,
                                         std::int64_t max_pes = -1);

// The sessions the pools run on: `base` itself for a pool without a machine or a load balancer
// of its own, else a session on serving.prefill_machine / serving.decode_machine (its efficiency
// and plugin blocks validated as `machine:`'s are) and with the pool's serving.disaggregated.
// <pool>.eplb applied to its model.
struct PoolSessions {
  std::unique_ptr<Session> own_prefill, own_decode;
  const Session* prefill = nullptr;
  const Session* decode = nullptr;
};
TESSERA_API PoolSessions pool_sessions(const Session& base);
// `from` with the pool's own load balancer (serving.disaggregated.<pool>.eplb) and MoE exchange
// kernels (Scenario::moe_a2a_pools), or null when the pool runs both as `from` does.
TESSERA_API std::unique_ptr<Session> pool_own_session(const Session& from, bool prefill);

// Best tokens/s/PE within the SLO, disaggregated / aggregated (0 when either has none).
TESSERA_API double disaggregation_gain(const DisaggResult& d, const ServeResult& a);

}  // namespace tessera
