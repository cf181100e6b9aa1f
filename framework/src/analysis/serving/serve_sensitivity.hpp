#pragma once
// `tessera sensitivity` on a serve scenario (docs/specification.md §5 "serving sensitivity"): the
// serving study's best point, then one-knob parallelism sweeps from its configuration (the best
// tokens/s/PE within the SLO over the scenario's serving points) and the elasticities of the best
// tokens/s/PE within the SLO (and of the ranking axis's best value, when another axis ranks) to
// each hardware knob and serving parameter (the SLO's TTFT and TPOT, the speculative acceptance),
// by central difference: re-optimised (a new serving study on the perturbed session) and fixed
// (the best point's configuration and serving point re-evaluated there).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/serving/serve_study.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"

namespace tessera {

// One value of one knob: the best configuration with the knob set to it, at its best serving
// point within the SLO.
struct ServeKnobValue {
  std::int32_t value = 1;
  ParallelConfig config;  // canonicalised
  bool feasible = false;  // some serving point within the SLO (and the PE budget)
  std::int64_t pes = 0;
  ServingPoint point;                // the best point (feasible), else the closest miss's or the first
  double tokens_per_s_per_pe = 0;    // the best within the SLO (feasible)
  double tokens_per_s_per_user = 0;  // at that point
  std::string reason;                // why no point is feasible ("" when one is)
};

struct ServeKnobSweep {
  std::string knob;                    // "tp"
  std::int32_t baseline = 1;           // the best configuration's value
  std::vector<ServeKnobValue> values;  // one per seed_sweep_values(knob)
};

// One perturbed quantity's values at the knob · (1 - step) and · (1 + step), and the elasticity.
struct ServeResponse {
  double minus = NAN, plus = NAN;
  double elasticity = NAN;  // d ln(quantity) / d ln(knob); NaN when either value is missing
};

struct ServeElasticity {
  std::string path;   // "machine.pe.hbm.bandwidth", "serving.slo.tpot"
  std::string label;  // "HBM bandwidth"
  double value = 0;   // SI, unperturbed
  Dimension dimension = Dimension::none;
  ServeResponse fixed, reoptimised;            // best tokens/s/PE within the SLO
  ServeResponse axis_fixed, axis_reoptimised;  // the ranking axis's best value (when it is not tokens/s/PE)
  ServeResponse disaggregated;  // the best pair's tokens/s/PE, re-optimised (serving.disaggregated)
  std::string note;             // why an elasticity is undefined
};

// The knobs --hardware perturbs on a serve scenario: hardware_knobs(session), then serving.slo.ttft
// and serving.slo.tpot when the scenario bounds them, serving.speculative.acceptance when
// serving.speculative gives one geometric rate (not swept).
TESSERA_API std::vector<std::pair<std::string, std::string>> serve_sensitivity_knobs(const Session& session);

struct ServeSensitivityStudy {
  ServeRecord best;                       // the serving study's best point within the SLO
  std::vector<ObjectiveSlot> objectives;  // the session's
  std::vector<ServeAxis> axes;            // the study's; axes.front() ranks
  double best_tokens_per_s_per_pe = 0;
  std::optional<double> disaggregated_tokens_per_s_per_pe;  // serving.disaggregated: the best pair's
  bool has_parallelism = false, has_hardware = false;
  std::vector<ServeKnobSweep> parallelism;
  std::vector<ServeElasticity> hardware;  // ranked by |elasticity|, re-optimised first
  std::string note;  // what the study leaves out (serving.requests: the steady state only)
};

struct ServeSensitivityOptions {
  unsigned threads = 0;
  ProgressCallback on_progress;  // "serving points" of the first study, then "sensitivity knobs"
  double step = 0.1;
};

// Throws Error when no serving point is within the SLO (nothing to perturb).
TESSERA_API ServeSensitivityStudy serve_sensitivity_study(const Session& session, bool parallelism,
                                                          bool hardware,
                                                          const ServeSensitivityOptions& options);

// From `best`, each of cp, tp, pp, dp, ep over the seed's lists, the others fixed.
TESSERA_API std::vector<ServeKnobSweep> serve_parallelism_sensitivity(const Session& session,
                                                                      const ParallelConfig& best);

// The elasticities at `best` (hardware part of serve_sensitivity_study).
TESSERA_API std::vector<ServeElasticity> serve_hardware_sensitivity(const Session& session,
                                                                    const ServeRecord& best,
                                                                    const ServeSensitivityOptions& options);

}  // namespace tessera
