#pragma once
// What `tessera calibrate` fits, as data: one row per fitted value of the latency model's machine
// block (a machine family's `efficiency:` values) or of its framework profile (the plugin's
// profile-override parameters), with the space it is searched in and its documented physical
// range. Ranges narrower than the plugin's ParamSpec range are the documented ones
// (docs/accuracy.md "The calibrated model"); the ParamSpec range bounds them.
#include <span>
#include <string>
#include <vector>

#include "tessera/export.hpp"
#include "tessera/plugin/descriptor.hpp"

namespace tessera::calibration {

// The space a value is searched in: an efficiency in (0, 1) on a logit scale, a time (s) on a
// log scale in µs, a positive count on a log scale.
enum class Transform { logit, log_us, log };

enum class ParamOwner { family, profile };

struct FitParameter {
  std::string name;  // the plugin parameter (machine-block key or latency parameter)
  ParamOwner owner = ParamOwner::family;
  Transform transform = Transform::logit;
  double lo = 0, hi = 1;    // documented physical range (SI): a value outside is an artefact
  double start = 0;         // SI: where the fit starts, and the value the weak prior pulls towards
  bool needs_8bit = false;  // fitted only for a family with rows whose GEMMs run in <= 8 bits
};

TESSERA_API double encode(Transform t, double v);
TESSERA_API double decode(Transform t, double x);
// The coarse scan range of the coordinate search, in the transformed space.
TESSERA_API std::pair<double, double> scan_range(Transform t);

// The fitted parameters of latency plugin `d`, as its descriptor's `fit` table declares them
// (docs/plugin-guide.md "Roles"): the machine-block values of `schema` (the plugin whose machine
// schema reads the block: `d` itself, or the plugin it falls back on) and `d`'s profile values
// when it takes them from parameters (a `profile_overrides` parameter). Starts are the ParamSpec
// defaults for a machine-block value and the declared start for a profile value; ranges are
// clipped to the ParamSpecs. Throws InputError when nothing is declared (nothing to calibrate).
TESSERA_API std::vector<FitParameter> fit_parameters(const PluginDescriptor& d,
                                                     const PluginDescriptor& schema);

}  // namespace tessera::calibration
