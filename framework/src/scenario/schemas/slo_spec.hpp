#pragma once
// `serving.slo` (docs/scenario-format.md "Serving"): the service level a serving point must meet.
// Each of TTFT, TPOT and end-to-end latency takes a plain time (a target on the mean) or a
// mapping of statistics, `{mean: 500 ms, p99: 2 s}` (any percentile in (0, 100)). The
// steady-state study binds, for each metric, the tightest of its targets: without a queue every
// request is alike, so every statistic equals the one value it prices. A request simulation
// (docs/physics.md §12.5) binds each target's own statistic.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "tessera/error.hpp"
#include "tessera/export.hpp"

namespace tessera {

inline constexpr double kNoSlo = std::numeric_limits<double>::infinity();

// The latency metrics an SLO may bind (TPOT: per request, (E2E − TTFT)/(OSL − 1)).
enum class SloLatency : std::uint8_t { ttft, tpot, e2e };

// "ttft", "tpot", "e2e" (the scenario keys); "TTFT", "TPOT", "E2E" (the reports').
TESSERA_API const char* slo_latency_key(SloLatency m);
TESSERA_API const char* slo_latency_label(SloLatency m);

// One target: the statistic of a metric at most `limit_s`.
struct SloTarget {
  SloLatency metric = SloLatency::ttft;
  double percentile = 0;  // in (0, 100); 0: the mean
  double limit_s = kNoSlo;
  SourceLocation where;  // the value's place in the scenario
  bool is_mean() const { return percentile == 0; }
};

// "mean" or "P99", "P99.9", "P50" (the statistic a target binds).
TESSERA_API std::string slo_statistic_label(const SloTarget& t);
// "TTFT P99", "TPOT mean": a target's metric and statistic as the reports name it.
TESSERA_API std::string slo_target_label(const SloTarget& t);
// "mean" or "p99", "p99.9": the statistic as the scenario and the JSON name it.
TESSERA_API std::string slo_statistic_key(const SloTarget& t);

struct ServingSlo {
  // The steady-state bounds: each metric's tightest target (kNoSlo: none).
  double ttft_s = kNoSlo;
  double tpot_s = kNoSlo;
  double e2e_s = kNoSlo;
  double min_tokens_per_s_per_user = 0;  // on the mean
  // Every TTFT, TPOT and E2E target as written, in file order (a plain time: a mean target).
  std::vector<SloTarget> targets;
  bool any() const {
    return ttft_s < kNoSlo || tpot_s < kNoSlo || e2e_s < kNoSlo || min_tokens_per_s_per_user > 0;
  }
  // Some target binds a percentile (the reports then say which statistic each binds).
  TESSERA_API bool has_percentiles() const;
  // Adds a target and tightens its metric's steady-state bound.
  TESSERA_API void add(const SloTarget& t);
};

}  // namespace tessera
