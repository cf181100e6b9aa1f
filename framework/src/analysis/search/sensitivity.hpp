#pragma once
// One-knob sensitivity (docs/specification.md §5): parallelism knobs over the seed's value lists from the
// best
// config, and hardware elasticities d ln(latency) / d ln(knob) by central difference.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/search/search_driver.hpp"
#include "eval/session.hpp"
#include "tessera/export.hpp"
#include "tessera/kinds/search_strategy.hpp"

namespace tessera {

// The seed's `_PARALLELISM_SWEEP_VALUES` (auto_explore.py).
TESSERA_API const std::vector<std::int32_t>& seed_sweep_values(const std::string& knob);  // cp tp pp dp ep
// The degree `knob` (cp tp pp dp ep; anything else: ep) of `c`.
TESSERA_API std::int32_t& parallel_degree(ParallelConfig& c, const std::string& knob);
// d ln(y) / d ln(knob) by central difference from y at knob x (1 - step) and x (1 + step); NaN
// unless both are positive and finite (an inf/inf or 0/0 ratio is not one).
TESSERA_API double central_elasticity(double y_minus, double y_plus, double step);

struct KnobSweep {
  std::string knob;           // "cp"
  std::int32_t baseline = 1;  // the best config's value
  std::vector<std::int32_t> values;
  std::vector<ConfigRecord> records;  // one per value (canonicalised config; reason when not feasible)
};

// From `best`, each of cp, tp, pp, dp, ep over the seed's list, the other knobs fixed.
TESSERA_API std::vector<KnobSweep> parallelism_sensitivity(const Session& session,
                                                           const ParallelConfig& best);

struct HardwareElasticity {
  std::string path;   // "machine.pe.hbm.bandwidth"
  std::string label;  // "HBM bandwidth"
  double value = 0;   // SI, at the scenario's machine
  Dimension dimension = Dimension::none;
  double latency_minus_fixed = 0, latency_plus_fixed = 0;  // s, at value·(1 ∓ step)
  double latency_minus_reopt = 0, latency_plus_reopt = 0;
  double elasticity_fixed = 0;  // NaN when undefined (value 0, nothing feasible)
  double elasticity_reopt = 0;
  std::string note;  // why an elasticity is undefined
};

// The hardware knobs: HBM bandwidth and capacity, the GEMM format's peak, each level's link
// bandwidth and latency, stage overhead.
TESSERA_API std::vector<std::pair<std::string, std::string>> hardware_knobs(const Session& session);

// A knob of hardware_knobs(): its SI value at the session's machine, its dimension and, for a
// latency plugin's parameter (plugins.latency.<name>.<param>), its schema entry (nullptr else).
struct KnobValue {
  double value = 0;
  Dimension dimension = Dimension::none;
  const ParamSpec* spec = nullptr;
};
TESSERA_API KnobValue hardware_knob_value(const Session& session, const std::string& path);
// A session on the same plugins with the knob `path` at `value` (SI): a machine field, a
// machine-block parameter, or the running latency plugin's parameter (re-created).
TESSERA_API std::unique_ptr<Session> with_hardware_knob(const Session& session, const std::string& path,
                                                        double value, const ParamSpec* spec);

// Elasticities at `best`, parallelism fixed and re-optimised with `strategy` (a new search on
// the perturbed machine); ranked by |elasticity| (re-optimised first, then fixed).
TESSERA_API std::vector<HardwareElasticity> hardware_sensitivity(const Session& session,
                                                                 const SearchStrategy& strategy,
                                                                 const ParallelConfig& best,
                                                                 const SearchOptions& options,
                                                                 double step = 0.1);

// `tessera sensitivity`: the best configuration by the scenario's search, then one-knob
// parallelism sweeps from it and/or the hardware elasticities at it.
struct SensitivityStudy {
  ConfigRecord best;
  std::vector<ObjectiveSlot> objectives;  // the search's
  bool has_parallelism = false, has_hardware = false;
  std::vector<KnobSweep> parallelism;        // with has_parallelism
  std::vector<HardwareElasticity> hardware;  // with has_hardware
};

// `options.on_progress` sees the search ("configurations"), then the knobs ("hardware knobs").
// Throws Error when nothing is feasible (nothing to perturb).
TESSERA_API SensitivityStudy sensitivity_study(const Session& session, const SearchStrategy& strategy,
                                               bool parallelism, bool hardware, const SearchOptions& options);

}  // namespace tessera
