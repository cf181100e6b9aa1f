#include "analysis/calibration/fit_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "tessera/error.hpp"

namespace tessera::calibration {

namespace {

struct Known {
  const char* name;
  ParamOwner owner;
  Transform transform;
  double lo, hi;
  double start;  // profile values only (SI); family values start at the ParamSpec default
  bool needs_8bit;
};

// The documented physical ranges (docs/accuracy.md). Family: the efficiency block of
// latency/calibrated (and latency/measured, which falls back on it). Profile: the four values
// the 2023 rows constrain; the per-sequence and per-chunk costs stay a-priori (no public row
// runs continuous batching or chunked prefill with a stated cost), so they are not in the table.
constexpr double us = 1e-6;
const Known kKnown[] = {
    {"gemm_efficiency", ParamOwner::family, Transform::logit, 0.4, 0.95, 0, false},
    {"gemm_m_half", ParamOwner::family, Transform::log, 1, 512, 0, false},
    {"gemm_8bit_efficiency", ParamOwner::family, Transform::logit, 0.4, 1.0, 0, true},
    {"hbm_efficiency", ParamOwner::family, Transform::logit, 0.6, 0.95, 0, false},
    {"attention_efficiency", ParamOwner::family, Transform::logit, 0.2, 0.9, 0, false},
    {"kernel_overhead", ParamOwner::family, Transform::log_us, 1 * us, 10 * us, 0, false},
    {"launch_overhead", ParamOwner::profile, Transform::log_us, 0, 50 * us, 5 * us, false},
    {"collective_overhead", ParamOwner::profile, Transform::log_us, 0, 150 * us, 10 * us, false},
    {"decode_step_overhead", ParamOwner::profile, Transform::log_us, 0, 2000 * us, 200 * us, false},
    {"prefill_overhead", ParamOwner::profile, Transform::log_us, 0, 20000 * us, 200 * us, false},
};

double spec_default(const ParamSpec& s) {
  if (!s.default_value) return 0;
  // "0.8", "32", "4 us": a number and an optional unit (µs is the only unit a family value has).
  char* end = nullptr;
  const double v = std::strtod(s.default_value, &end);
  const std::string unit = end ? std::string(end) : std::string();
  if (unit.find("us") != std::string::npos) return v * us;
  if (unit.find("ms") != std::string::npos) return v * 1e-3;
  if (unit.find("ns") != std::string::npos) return v * 1e-9;
  return v;
}

}  // namespace

double encode(Transform t, double v) {
  switch (t) {
    case Transform::logit: {
      const double e = std::clamp(v, 1e-4, 1 - 1e-4);
      return std::log(e / (1 - e));
    }
    case Transform::log_us:
      return std::log(v * 1e6 + 0.1);
    case Transform::log:
      return std::log(v + 0.1);
  }
  return 0;
}

double decode(Transform t, double x) {
  switch (t) {
    case Transform::logit:
      return 1 / (1 + std::exp(-x));
    case Transform::log_us:
      return std::max(0.0, std::exp(x) - 0.1) * 1e-6;
    case Transform::log:
      return std::max(0.0, std::exp(x) - 0.1);
  }
  return 0;
}

std::pair<double, double> scan_range(Transform t) {
  switch (t) {
    case Transform::logit:
      return {-4.0, 6.0};  // efficiency 0.018 .. 0.9975
    case Transform::log_us:
      return {-2.3, 11.5};  // 0 .. 100 ms
    case Transform::log:
      return {-2.3, 9.0};  // 0 .. 8100
  }
  return {-1, 1};
}

std::vector<FitParameter> fit_parameters(const PluginDescriptor& d) {
  std::vector<FitParameter> out;
  bool overridable = false;
  for (std::uint32_t i = 0; i < d.param_count; ++i)
    overridable = overridable || std::string(d.params[i].name) == "profile_overrides";
  for (const Known& k : kKnown) {
    const ParamSpec* spec = nullptr;
    if (k.owner == ParamOwner::family) {
      for (std::uint32_t i = 0; i < d.machine_param_count; ++i)
        if (k.name == std::string(d.machine_params[i].name)) spec = &d.machine_params[i];
    } else if (overridable) {
      for (std::uint32_t i = 0; i < d.param_count; ++i)
        if (k.name == std::string(d.params[i].name)) spec = &d.params[i];
    }
    if (!spec) continue;
    FitParameter p;
    p.name = k.name;
    p.owner = k.owner;
    p.transform = k.transform;
    p.lo = std::max(k.lo, spec->min);
    p.hi = std::min(k.hi, spec->max);
    p.start = k.owner == ParamOwner::family ? spec_default(*spec) : k.start;
    p.needs_8bit = k.needs_8bit;
    out.push_back(p);
  }
  if (out.empty())
    throw InputError(std::string("calibrate: latency/") + d.name +
                     " has no calibrated machine-block or profile value to fit (--latency calibrated)");
  return out;
}

}  // namespace tessera::calibration
