#include "analysis/requests/slo_check.hpp"

#include <cmath>

namespace tessera::requests {

RequestBounds request_bounds(const std::vector<SloTarget>& targets) {
  RequestBounds b;
  // Per metric: the percentile of the target that set the bound (-1: none yet; 0: the mean).
  double from[3] = {-1, -1, -1};
  for (const SloTarget& t : targets) {
    const auto m = static_cast<std::size_t>(t.metric);
    double& bound = t.metric == SloLatency::ttft   ? b.ttft_s
                    : t.metric == SloLatency::tpot ? b.tpot_s
                                                   : b.e2e_s;
    // A higher percentile replaces; at the same statistic the tighter limit stays.
    if (t.percentile > from[m] || (t.percentile == from[m] && t.limit_s < bound)) {
      from[m] = t.percentile;
      bound = t.limit_s;
    }
  }
  return b;
}

std::vector<SloCheck> check_slo(const std::vector<SloTarget>& targets, const MetricStats& ttft,
                                const MetricStats& tpot, const MetricStats& e2e) {
  std::vector<SloCheck> out;
  out.reserve(targets.size());
  // No measured request finished (every one refused): no target is met.
  const bool none = std::isnan(ttft.statistic(0).value);
  for (const SloTarget& t : targets) {
    const MetricStats& m = t.metric == SloLatency::ttft ? ttft : t.metric == SloLatency::tpot ? tpot : e2e;
    const Statistic s = m.statistic(t.percentile);
    // No value (TPOT of one-token outputs only): nothing breaks the target.
    const bool met = !none && (s.value != s.value || s.value <= t.limit_s);
    out.push_back(SloCheck{t, s.value, s.half_width, met});
  }
  return out;
}

}  // namespace tessera::requests
