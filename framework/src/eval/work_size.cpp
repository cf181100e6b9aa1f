#include "eval/work_size.hpp"

#include "eval/grid_pages.hpp"

#include <algorithm>
#include <limits>

#include "scenario/sweeps/sweep_size.hpp"
#include "tessera/error.hpp"
#include "tessera/limits.hpp"

namespace tessera {
namespace {

std::string count(std::uint64_t n) {
  return n == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 2^64") : std::to_string(n);
}

std::string plural(std::uint64_t n, const char* one, const char* many) {
  return count(n) + " " + (n == 1 ? one : many);
}

}  // namespace

WorkSize size_work(const Sweep& sweep, std::uint64_t hardware_points, std::uint64_t latency_models,
                   std::optional<std::uint64_t> samples, const ConfigCount* count) {
  WorkSize w;
  w.grid_points = sweep_grid_points(sweep);
  w.valid = w.grid_points;
  if (count) {
    w.counted = true;
    w.valid = count->configurations;
    w.more = count->more;
    w.tuples = count->tuples;
  }
  w.hardware_points = std::max<std::uint64_t>(1, hardware_points);
  w.latency_models = std::max<std::uint64_t>(1, latency_models);
  w.configurations = w.valid;
  // A count that stopped early means at least `valid`: as many samples are then all drawn.
  if (samples && (*samples < w.valid || (w.more && *samples <= w.valid))) {
    w.configurations = *samples;
    w.sampled = true;
  }
  w.serving_points = sweep_serving_points(sweep);
  w.evaluations = saturating_size_mul(
      saturating_size_mul(saturating_size_mul(w.hardware_points, w.configurations), w.latency_models),
      w.serving_points);
  return w;
}

double estimated_seconds(const WorkSize& w, unsigned threads) {
  return static_cast<double>(w.evaluations) * kSecondsPerEvaluation / std::max(1u, threads);
}

std::uint64_t estimated_bytes(const WorkSize& w) {
  // The index is built once per hardware point and latency model, one at a time.
  double b = 0;
  if (w.counted && !w.more) {
    // A slot and a seen bit per valid configuration, a start per numeric tuple.
    b = static_cast<double>(w.valid) * (2.0 + 1.0 / 8.0) + static_cast<double>(w.tuples) * 4.0;
  } else {
    const double per_config = 2.0 + 1.0 / 8.0 + 4.0;  // slot, seen bit, tuple start (at most one per config)
    b = static_cast<double>(w.grid_points) * per_config;
  }
  // Past kResidentIndexBytes the index is paged (eval/grid_pages.hpp): where each page starts,
  // and the pages the threads read (four a thread, sixteen shared: about 8 MB together).
  if (b > static_cast<double>(kResidentIndexBytes))
    b = static_cast<double>(kResidentIndexBytes) + 8.0 * (1 << 20);
  return b >= 1.8e19 ? std::numeric_limits<std::uint64_t>::max() : static_cast<std::uint64_t>(b);
}

std::string describe_work(const WorkSize& w) {
  std::string s = "grid " + plural(w.grid_points, "point", "points");
  if (w.counted)
    s += ", " + std::string(w.more ? "at least " : "") + plural(w.valid, "configuration", "configurations");
  if (w.sampled) s += " (" + plural(w.configurations, "sample", "samples") + ")";
  s += ", " + plural(w.hardware_points, "machine", "machines");
  if (w.latency_models > 1) s += ", " + plural(w.latency_models, "latency model", "latency models");
  if (w.serving_points > 1)
    s += ", " + plural(w.serving_points, "serving point", "serving points") + " per configuration";
  const bool lower_bound = w.more && !w.sampled;
  s += lower_bound ? ": at least " : ": at most ";
  s += plural(w.evaluations, "evaluation", "evaluations");
  return s;
}

void check_work(const WorkSize& w, const std::string& what) {
  if (w.evaluations <= current_limits().max_configs) return;
  throw InputError(what + ": " + describe_work(w) + " " + limit_exceeded("max_configs"));
}

}  // namespace tessera
