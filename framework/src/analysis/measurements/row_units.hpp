#pragma once
// The units a measurement row's value may be written in (its `unit` cell) that validate-data
// predicts in: times and bandwidths, each as the factor from SI (a value in ms = seconds × 1e3);
// and the synonyms of metric and unit names that sources use, read as the files' own names.
#include <optional>
#include <string>

#include "tessera/export.hpp"

namespace tessera::accuracy {

// s, sec, seconds, ms, msec, milliseconds, us, µs, μs, usec, microseconds, ns, nanoseconds (any
// case, blanks around): the factor from seconds.
TESSERA_API std::optional<double> time_unit_scale(const std::string& unit);

// B/s, MB/s, GB/s, TB/s (any case, blanks around): the factor from bytes per second.
TESSERA_API std::optional<double> bandwidth_unit_scale(const std::string& unit);

// A row's metric and unit as the measurement files name them (data/README.md), from the names
// benchmarks print: `ITL`, `mean_itl`, `inter_token_latency` -> itl; `mean_tpot`,
// `time_per_output_token` -> tpot; `mean_ttft`, `time_to_first_token` -> ttft;
// `output_throughput` -> throughput_out; a rate per user (`tok/s/user`) -> decode_tok_s_per_user
// in tok/s; a rate per GPU (`tok/s/GPU` on a total-throughput metric) -> the `_per_gpu` metric;
// `tokens/s`, `tok/sec` -> tok/s; `ms/token` on a per-token time -> ms; `requests/s` -> req/s.
// Names it does not know are returned as they are.
struct MetricUnit {
  std::string metric, unit;
};
TESSERA_API MetricUnit canonical_metric_unit(const std::string& metric, const std::string& unit);

// A metric's statistic suffix: `ttft_p99` -> {ttft, p99}, `itl_median` -> {itl, p50}, `tpot_mean`
// -> {tpot, mean}; a metric without one -> {metric, mean}. Only ttft, tpot, itl and e2e_latency
// take a suffix.
struct MetricStatistic {
  std::string base, statistic;
};
TESSERA_API MetricStatistic split_statistic(const std::string& metric);

}  // namespace tessera::accuracy
