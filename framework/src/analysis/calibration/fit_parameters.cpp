#include "analysis/calibration/fit_parameters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "tessera/error.hpp"

namespace tessera::calibration {

namespace {

Transform transform_of(FitScale s) {
  switch (s) {
    case FitScale::logit:
      return Transform::logit;
    case FitScale::log_us:
      return Transform::log_us;
    case FitScale::log:
      return Transform::log;
  }
  return Transform::logit;
}

constexpr double us = 1e-6;

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

std::vector<FitParameter> fit_parameters(const PluginDescriptor& d, const PluginDescriptor& schema) {
  std::vector<FitParameter> out;
  bool overridable = false;
  for (std::uint32_t i = 0; i < d.param_count; ++i)
    overridable = overridable || std::string(d.params[i].name) == "profile_overrides";
  const auto add = [&](const FitSpec& k, const ParamSpec* specs, std::uint32_t count) {
    const ParamSpec* spec = nullptr;
    for (std::uint32_t i = 0; i < count; ++i)
      if (std::string(k.name) == specs[i].name) spec = &specs[i];
    if (!spec) return;
    FitParameter p;
    p.name = k.name;
    p.owner = k.owner == FitOwner::machine_block ? ParamOwner::family : ParamOwner::profile;
    p.transform = transform_of(k.scale);
    p.lo = std::max(k.lo, spec->min);
    p.hi = std::min(k.hi, spec->max);
    p.start = p.owner == ParamOwner::family ? spec_default(*spec) : k.start;
    p.needs_8bit = k.needs_8bit;
    out.push_back(p);
  };
  // Machine-block values from the plugin whose machine schema the block is read with; values of
  // the serving stack's profile from the plugin itself, when it takes them from parameters.
  for (std::uint32_t i = 0; i < schema.fit_count; ++i)
    if (schema.fit[i].owner == FitOwner::machine_block)
      add(schema.fit[i], schema.machine_params, schema.machine_param_count);
  if (overridable)
    for (std::uint32_t i = 0; i < d.fit_count; ++i)
      if (d.fit[i].owner == FitOwner::scenario) add(d.fit[i], d.params, d.param_count);
  if (out.empty())
    throw InputError(
        std::string("calibrate: latency/") + d.name +
        " declares no value to fit (its descriptor's `fit` table, docs/plugin-guide.md \"Roles\")");
  return out;
}

}  // namespace tessera::calibration
