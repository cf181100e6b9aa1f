#pragma once
// The service level of a request simulation (docs/physics.md §12.5 "SLOs"): each target of
// `serving.slo` (scenario/schemas/slo_spec.hpp) checked against the statistic it binds, and the
// per-request bounds that count a request towards goodput.
#include <cstdint>
#include <vector>

#include "analysis/requests/metric_stats.hpp"
#include "scenario/schemas/slo_spec.hpp"
#include "tessera/export.hpp"

namespace tessera::requests {

// One target checked: the simulated statistic (seconds), its 95 % half-width, and whether it
// is within the target (the point estimate at most the limit).
struct SloCheck {
  SloTarget target;
  double value_s = 0;
  double half_width_s = 0;  // NaN under two batches
  bool met = false;
};

// What one request must meet to count as good: for each metric, the limit of its
// highest-percentile target (a request within the P99 bound is one of the 99 %), or of its mean
// target when it has only that (kNoSlo: none). TPOT binds requests of two tokens or more.
struct RequestBounds {
  double ttft_s = kNoSlo;
  double tpot_s = kNoSlo;
  double e2e_s = kNoSlo;
  bool good(double ttft, double tpot, double e2e, std::int64_t output_tokens) const {
    return ttft <= ttft_s && (output_tokens <= 1 || tpot <= tpot_s) && e2e <= e2e_s;
  }
};

TESSERA_API RequestBounds request_bounds(const std::vector<SloTarget>& targets);

// Every target checked against the simulation's metrics, in the targets' order.
TESSERA_API std::vector<SloCheck> check_slo(const std::vector<SloTarget>& targets, const MetricStats& ttft,
                                            const MetricStats& tpot, const MetricStats& e2e);

}  // namespace tessera::requests
