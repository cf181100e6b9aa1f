#pragma once
// Evaluates one configuration at one serving point (docs/physics.md §12 "Serving"): the
// session's serving plugin composes step times (the host's StepTimer over the evaluator and
// its latency and memory plugins) into request metrics; the host checks them, times the decode
// step at the point's mean context for the objectives and the stage breakdown, computes the
// objectives (EvaluatedStep::serving set) and checks the SLO. Nothing is allocated per point:
// the caller owns the ServingEvaluation and reuses it.
#include <array>
#include <cstdint>
#include <string>

#include "eval/evaluator.hpp"
#include "eval/host_step_timer.hpp"
#include "eval/session.hpp"
#include "scenario/scenario.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/serving_model.hpp"

namespace tessera {

// Why a serving point is not feasible, the first reason in this order.
enum class ServingVerdict : std::uint8_t {
  feasible,
  invalid,      // the configuration's layout is invalid (Evaluation::layout.reason)
  unsupported,  // the serving plugin cannot run it (ServingMetrics::infeasible)
  kv_overflow,  // the KV of B (ISL + OSL) tokens does not fit (ServingMetrics::kv_fits)
  non_finite,   // a metric or objective came out inf/NaN
  slo,          // runnable, but misses the SLO (ServingEvaluation::slo_miss)
};

// The SLO a runnable point misses first (ttft, tpot, e2e, tokens/s/user), and by how much.
enum class SloMetric : std::uint8_t { none, ttft, tpot, e2e, tokens_per_s_per_user };
TESSERA_API const char* slo_metric_name(SloMetric m);  // "TTFT", "TPOT", "E2E", "tokens/s/user"

struct ServingEvaluation {
  ParallelConfig config;
  ServingPoint point;
  ServingMetrics metrics;
  ServingVerdict verdict = ServingVerdict::invalid;
  bool feasible = false;  // verdict == feasible: runnable and within the SLO
  bool runnable = false;  // valid, supported, fits, finite (the SLO aside)
  SloMetric slo_miss = SloMetric::none;
  double slo_value = 0, slo_limit = 0;  // the missed metric's value and its limit (SI)
  // How far from the SLO: max over the SLOs of value / limit (limit / value for the minimum
  // tokens/s/user); <= 1 when met. 0 without an SLO.
  double slo_ratio = 0;
  double pes = 0;                    // PEs of the configuration (all dp replicas)
  double tokens_per_s = 0;           // all replicas: dp * metrics.tokens_per_s
  double tokens_per_s_per_pe = 0;    // tokens_per_s / pes
  double tokens_per_s_per_user = 0;  // 1 / TPOT
  std::array<double, kMaxObjectives> objectives{};
  // The decode step at the point's batch and mean context (stages, totals), its layout and the
  // memory at the peak KV (B sequences of ISL + OSL tokens).
  Evaluation step;
  Evaluation scratch;  // the StepTimer's
  // serving.speculative method draft: the draft model's configuration and its step's scratch.
  ParallelConfig draft_config;
  Evaluation draft_scratch;
  // On a machine with an `energy:` block: the totals of one prompt's prefill on every replica
  // (batch 1, ISL tokens, chunk = ISL; EvaluatedStep::prefill), kept while the configuration
  // (`prefill_for`) stays the same.
  StepTotals prefill;
  ParallelConfig prefill_for;
  std::uint64_t prefill_evaluator = 0;  // Evaluator::id() of the evaluator that computed `prefill`
};

class TESSERA_API ServingEvaluator {
 public:
  // `session` in mode serve (its serving plugin set); `slo` from the scenario.
  ServingEvaluator(const Session& session, const ServingSlo& slo);

  const Session& session() const { return session_; }
  const ServingSlo& slo() const { return slo_; }
  ServingRequest request() const { return request_; }

  // Fills `out` for configuration `c` at `point`. A plugin's failure or bad value is
  // rethrown with the configuration and the point appended.
  void evaluate(const ParallelConfig& c, const ServingPoint& point, ServingEvaluation& out) const;

 private:
  void evaluate_point(const ParallelConfig& c, const ServingPoint& point, ServingEvaluation& out) const;
  void check_slo(ServingEvaluation& out) const;
  // `out` cleared for configuration `c` at `point`.
  void clear_point(const ParallelConfig& c, const ServingPoint& point, ServingEvaluation& out) const;
  // The timer's serving point (the engine's profile pass) and drafter; false (the point
  // unsupported, `out` says why) when a draft model cannot run at `c`.
  bool prepare(HostStepTimer& timer, const ParallelConfig& c, const ServingPoint& point,
               ServingEvaluation& out) const;
  // Throws PluginError: the serving plugin said kv_fits, the memory model (at `peak`) says no.
  [[noreturn, gnu::cold, gnu::noinline]] void kv_claim_refuted(const Workload& peak,
                                                               const MemoryUsage& memory) const;

  const Session& session_;
  ServingSlo slo_;
  ServingRequest request_;
};

// Why `e` is not feasible, for reports ("" when it is): "TPOT 61.2 ms > SLO 50 ms",
// "KV of 64 x 5120 tokens does not fit: 93.1 GB > 80 GB", the plugin's reason, the layout's.
TESSERA_API std::string serving_reason(const Session& session, const ServingEvaluation& e);

}  // namespace tessera
